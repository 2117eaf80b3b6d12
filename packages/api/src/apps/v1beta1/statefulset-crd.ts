/**
 * The Advanced StatefulSet CustomResourceDefinition: names, subresources and printer columns as
 * OpenKruise declares them; only v1beta1 is served (no v1alpha1, no conversion webhook).
 */
import type { CrdDefinition, PrinterColumn } from '../../crd/custom-resource-definition.ts';
import { APPS_KRUISE_IO_GROUP } from '../v1alpha1/group-version.ts';
import { STATEFULSET_KIND, STATEFULSET_LIST_KIND, STATEFULSET_PLURAL, STATEFULSET_SHORT_NAMES, STATEFULSET_SINGULAR, V1BETA1 } from './group-version.ts';
import { statefulSetSchema } from './statefulset.ts';

/** `kubectl get asts` columns; the last two only with `-o wide`. */
export const STATEFULSET_PRINTER_COLUMNS: readonly PrinterColumn[] = [
  { name: 'DESIRED', type: 'integer', jsonPath: '.spec.replicas', description: 'The desired number of pods.' },
  { name: 'CURRENT', type: 'integer', jsonPath: '.status.replicas', description: 'The number of created pods.' },
  { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedReplicas', description: 'The number of pods updated.' },
  { name: 'READY', type: 'integer', jsonPath: '.status.readyReplicas', description: 'The number of pods ready.' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since the StatefulSet was created.' },
  { name: 'CONTAINERS', type: 'string', priority: 1, jsonPath: '.spec.template.spec.containers[*].name', description: 'The containers of the pod template.' },
  { name: 'IMAGES', type: 'string', priority: 1, jsonPath: '.spec.template.spec.containers[*].image', description: 'The images of the pod template.' },
];

/** The StatefulSet kind as the CRD generator takes it. */
export const statefulSetCrdDefinition: CrdDefinition = {
  group: APPS_KRUISE_IO_GROUP,
  names: { kind: STATEFULSET_KIND, listKind: STATEFULSET_LIST_KIND, plural: STATEFULSET_PLURAL, singular: STATEFULSET_SINGULAR, shortNames: [...STATEFULSET_SHORT_NAMES] },
  scope: 'Namespaced',
  versions: [
    {
      name: V1BETA1,
      served: true,
      storage: true,
      schema: statefulSetSchema,
      subresources: {
        status: true,
        scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' },
      },
      additionalPrinterColumns: STATEFULSET_PRINTER_COLUMNS,
    },
  ],
};
