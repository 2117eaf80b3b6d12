/**
 * The BroadcastJob CustomResourceDefinition: namespaced, short name `bcj`, status subresource,
 * OpenKruise's printer columns (Desired, Active, Succeeded, Failed, AGE); v1alpha1 and v1beta1 served,
 * v1beta1 stored, as in OpenKruise 1.9. The two versions have the same schema, so the API server
 * converts them itself (strategy None, as OpenKruise 1.9's CRD): no webhook to be down.
 */
import type { CrdDefinition, PrinterColumn } from '../../crd/custom-resource-definition.ts';
import { broadcastJobSchema } from './broadcastjob.ts';
import {
  BROADCASTJOB_KIND,
  BROADCASTJOB_LIST_KIND,
  BROADCASTJOB_PLURAL,
  BROADCASTJOB_SHORT_NAME,
  BROADCASTJOB_SINGULAR,
} from './broadcastjob-names.ts';
import { V1BETA1 } from '../v1beta1/group-version.ts';
import { APPS_KRUISE_IO_GROUP, V1ALPHA1 } from './group-version.ts';

/** `kubectl get bcj` columns. */
export const BROADCASTJOB_PRINTER_COLUMNS: readonly PrinterColumn[] = [
  {
    name: 'Desired',
    type: 'integer',
    jsonPath: '.status.desired',
    description: 'The desired number of pods. This is typically equal to the number of nodes satisfied to run pods.',
  },
  { name: 'Active', type: 'integer', jsonPath: '.status.active', description: 'The number of actively running pods.' },
  {
    name: 'Succeeded',
    type: 'integer',
    jsonPath: '.status.succeeded',
    description: 'The number of pods which reached phase Succeeded.',
  },
  {
    name: 'Failed',
    type: 'integer',
    jsonPath: '.status.failed',
    description: 'The number of pods which reached phase Failed.',
  },
  {
    name: 'AGE',
    type: 'date',
    jsonPath: '.metadata.creationTimestamp',
    description: 'Time since the BroadcastJob was created.',
  },
];

/** The BroadcastJob kind as the CRD generator takes it. */
export const broadcastJobCrdDefinition: CrdDefinition = {
  group: APPS_KRUISE_IO_GROUP,
  names: {
    kind: BROADCASTJOB_KIND,
    listKind: BROADCASTJOB_LIST_KIND,
    plural: BROADCASTJOB_PLURAL,
    singular: BROADCASTJOB_SINGULAR,
    shortNames: [BROADCASTJOB_SHORT_NAME],
  },
  scope: 'Namespaced',
  versions: [V1ALPHA1, V1BETA1].map((name) => ({
    name,
    served: true,
    storage: name === V1BETA1,
    schema: broadcastJobSchema,
    subresources: { status: true },
    additionalPrinterColumns: BROADCASTJOB_PRINTER_COLUMNS,
  })),
  conversion: { strategy: 'None' },
};
