/**
 * The SidecarSet CustomResourceDefinition: cluster-scoped, status subresource, OpenKruise's printer
 * columns (MATCHED, UPDATED, READY, AGE); v1alpha1 and v1beta1 served, v1beta1 stored, converted by the
 * SidecarSet app's conversion webhook, as in OpenKruise 1.9.
 */
import type { CrdDefinition, PrinterColumn } from '../../crd/custom-resource-definition.ts';
import { DEFAULT_CONVERSION_SERVICE } from '../../crd/conversion-webhook-service.ts';
import { V1BETA1 } from '../v1beta1/group-version.ts';
import { APPS_KRUISE_IO_GROUP, V1ALPHA1 } from './group-version.ts';
import { SIDECARSET_KIND, SIDECARSET_LIST_KIND, SIDECARSET_PLURAL, SIDECARSET_SINGULAR } from './sidecarset-names.ts';
import { sidecarSetV1alpha1Schema, sidecarSetV1beta1Schema } from './sidecarset.ts';

/** `kubectl get sidecarset` columns. */
export const SIDECARSET_PRINTER_COLUMNS: readonly PrinterColumn[] = [
  { name: 'MATCHED', type: 'integer', jsonPath: '.status.matchedPods', description: 'The number of pods matched.' },
  {
    name: 'UPDATED',
    type: 'integer',
    jsonPath: '.status.updatedPods',
    description: 'The number of pods matched and updated.',
  },
  {
    name: 'READY',
    type: 'integer',
    jsonPath: '.status.readyPods',
    description: 'The number of pods matched and ready.',
  },
  {
    name: 'AGE',
    type: 'date',
    jsonPath: '.metadata.creationTimestamp',
    description: 'Time since the SidecarSet was created.',
  },
];

/** The SidecarSet kind as the CRD generator takes it. */
export const sidecarSetCrdDefinition: CrdDefinition = {
  group: APPS_KRUISE_IO_GROUP,
  names: {
    kind: SIDECARSET_KIND,
    listKind: SIDECARSET_LIST_KIND,
    plural: SIDECARSET_PLURAL,
    singular: SIDECARSET_SINGULAR,
  },
  scope: 'Cluster',
  versions: [
    {
      name: V1ALPHA1,
      served: true,
      storage: false,
      schema: sidecarSetV1alpha1Schema,
      subresources: { status: true },
      additionalPrinterColumns: SIDECARSET_PRINTER_COLUMNS,
    },
    {
      name: V1BETA1,
      served: true,
      storage: true,
      schema: sidecarSetV1beta1Schema,
      subresources: { status: true },
      additionalPrinterColumns: SIDECARSET_PRINTER_COLUMNS,
    },
  ],
  conversion: { strategy: 'Webhook', service: DEFAULT_CONVERSION_SERVICE },
};
