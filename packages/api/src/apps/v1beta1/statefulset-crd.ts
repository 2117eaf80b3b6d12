/**
 * The Advanced StatefulSet CustomResourceDefinition: names, subresources and printer columns as
 * OpenKruise declares them; v1alpha1 and v1beta1 served, v1beta1 stored, converted by the Advanced
 * StatefulSet app's conversion webhook, as in OpenKruise 1.9.
 */
import type { CrdDefinition, CrdSubresources, PrinterColumn } from '../../crd/custom-resource-definition.ts';
import { DEFAULT_CONVERSION_SERVICE } from '../../crd/conversion-webhook-service.ts';
import { APPS_KRUISE_IO_GROUP, V1ALPHA1 } from '../v1alpha1/group-version.ts';
import {
  STATEFULSET_KIND,
  STATEFULSET_LIST_KIND,
  STATEFULSET_PLURAL,
  STATEFULSET_SHORT_NAMES,
  STATEFULSET_SINGULAR,
  V1BETA1,
} from './group-version.ts';
import { statefulSetSchema, statefulSetV1alpha1Schema } from './statefulset.ts';

/** `kubectl get asts` columns; the last two only with `-o wide`. */
export const STATEFULSET_PRINTER_COLUMNS: readonly PrinterColumn[] = [
  { name: 'DESIRED', type: 'integer', jsonPath: '.spec.replicas', description: 'The desired number of pods.' },
  { name: 'CURRENT', type: 'integer', jsonPath: '.status.replicas', description: 'The number of created pods.' },
  { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedReplicas', description: 'The number of pods updated.' },
  { name: 'READY', type: 'integer', jsonPath: '.status.readyReplicas', description: 'The number of pods ready.' },
  {
    name: 'AGE',
    type: 'date',
    jsonPath: '.metadata.creationTimestamp',
    description: 'Time since the StatefulSet was created.',
  },
  {
    name: 'CONTAINERS',
    type: 'string',
    priority: 1,
    jsonPath: '.spec.template.spec.containers[*].name',
    description: 'The containers of the pod template.',
  },
  {
    name: 'IMAGES',
    type: 'string',
    priority: 1,
    jsonPath: '.spec.template.spec.containers[*].image',
    description: 'The images of the pod template.',
  },
];

const SUBRESOURCES: CrdSubresources = {
  status: true,
  scale: {
    specReplicasPath: '.spec.replicas',
    statusReplicasPath: '.status.replicas',
    labelSelectorPath: '.status.labelSelector',
  },
};

/** The StatefulSet kind as the CRD generator takes it. */
export const statefulSetCrdDefinition: CrdDefinition = {
  group: APPS_KRUISE_IO_GROUP,
  names: {
    kind: STATEFULSET_KIND,
    listKind: STATEFULSET_LIST_KIND,
    plural: STATEFULSET_PLURAL,
    singular: STATEFULSET_SINGULAR,
    shortNames: [...STATEFULSET_SHORT_NAMES],
  },
  scope: 'Namespaced',
  versions: [
    {
      name: V1ALPHA1,
      served: true,
      storage: false,
      schema: statefulSetV1alpha1Schema,
      subresources: SUBRESOURCES,
      additionalPrinterColumns: STATEFULSET_PRINTER_COLUMNS,
    },
    {
      name: V1BETA1,
      served: true,
      storage: true,
      schema: statefulSetSchema,
      subresources: SUBRESOURCES,
      additionalPrinterColumns: STATEFULSET_PRINTER_COLUMNS,
    },
  ],
  conversion: { strategy: 'Webhook', service: DEFAULT_CONVERSION_SERVICE },
};
