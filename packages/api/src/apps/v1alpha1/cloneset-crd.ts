/**
 * The CloneSet CustomResourceDefinition: names, subresources and printer columns as OpenKruise
 * declares them; only v1alpha1 is served (v1beta1 and its conversion webhook are not served yet).
 */
import type { CrdDefinition, PrinterColumn } from '../../crd/custom-resource-definition.ts';
import { cloneSetSchema } from './cloneset.ts';
import {
  APPS_KRUISE_IO_GROUP,
  CLONESET_KIND,
  CLONESET_LIST_KIND,
  CLONESET_PLURAL,
  CLONESET_SHORT_NAME,
  CLONESET_SINGULAR,
  V1ALPHA1,
} from './group-version.ts';

/** `kubectl get clonesets` columns; the last three only with `-o wide`. */
export const CLONESET_PRINTER_COLUMNS: readonly PrinterColumn[] = [
  { name: 'DESIRED', type: 'integer', jsonPath: '.spec.replicas', description: 'The desired number of pods.' },
  { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedReplicas', description: 'The number of pods updated.' },
  {
    name: 'UPDATED_READY',
    type: 'integer',
    jsonPath: '.status.updatedReadyReplicas',
    description: 'The number of pods updated and ready.',
  },
  {
    name: 'UPDATED_AVAILABLE',
    type: 'integer',
    jsonPath: '.status.updatedAvailableReplicas',
    description: 'The number of pods updated and available.',
  },
  { name: 'READY', type: 'integer', jsonPath: '.status.readyReplicas', description: 'The number of pods ready.' },
  { name: 'TOTAL', type: 'integer', jsonPath: '.status.replicas', description: 'The number of all current pods.' },
  {
    name: 'AGE',
    type: 'date',
    jsonPath: '.metadata.creationTimestamp',
    description: 'Time since the CloneSet was created.',
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
  {
    name: 'SELECTOR',
    type: 'string',
    priority: 1,
    jsonPath: '.status.labelSelector',
    description: 'The label selector of the pods.',
  },
];

/** The CloneSet kind as the CRD generator takes it. */
export const cloneSetCrdDefinition: CrdDefinition = {
  group: APPS_KRUISE_IO_GROUP,
  names: {
    kind: CLONESET_KIND,
    listKind: CLONESET_LIST_KIND,
    plural: CLONESET_PLURAL,
    singular: CLONESET_SINGULAR,
    shortNames: [CLONESET_SHORT_NAME],
  },
  scope: 'Namespaced',
  versions: [
    {
      name: V1ALPHA1,
      served: true,
      storage: true,
      schema: cloneSetSchema,
      subresources: {
        status: true,
        scale: {
          specReplicasPath: '.spec.replicas',
          statusReplicasPath: '.status.replicas',
          labelSelectorPath: '.status.labelSelector',
        },
      },
      additionalPrinterColumns: CLONESET_PRINTER_COLUMNS,
    },
  ],
};
