/**
 * The pod template and PVC templates of a CloneSet: the workload pod template of `pub`, with
 * CloneSet's names in its descriptions and messages.
 */
import { workloadPodTemplateSchema } from '../pub/workload-pod-template.ts';
import {
  CLONESET_INSTANCE_ID_LABEL,
  CONTROLLER_REVISION_HASH_LABEL,
  POD_TEMPLATE_HASH_LABEL,
  SPECIFIED_DELETE_LABEL,
} from '../well-known-labels.ts';
import { LIFECYCLE_STATE_LABEL } from '../pub/lifecycle.ts';

export { MAX_TEMPLATE_CONTAINERS, volumeClaimTemplateSchema } from '../pub/workload-pod-template.ts';

/** The pod template of a CloneSet (core/v1 PodTemplateSpec). */
export const cloneSetPodTemplateSchema = workloadPodTemplateSchema(
  { lower: 'cloneset', kind: 'CloneSet' },
  {
    reservedLabels: [
      CONTROLLER_REVISION_HASH_LABEL,
      POD_TEMPLATE_HASH_LABEL,
      CLONESET_INSTANCE_ID_LABEL,
      LIFECYCLE_STATE_LABEL,
      SPECIFIED_DELETE_LABEL,
    ],
  },
);
