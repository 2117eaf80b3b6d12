/**
 * The pod template and PVC templates of a CloneSet: the workload pod template of `pub`, with
 * CloneSet's names in its descriptions and messages.
 */
import { workloadPodTemplateSchema } from '../pub/workload-pod-template.ts';

export { MAX_TEMPLATE_CONTAINERS, volumeClaimTemplateSchema } from '../pub/workload-pod-template.ts';

/** The pod template of a CloneSet (core/v1 PodTemplateSpec). */
export const cloneSetPodTemplateSchema = workloadPodTemplateSchema({ lower: 'cloneset', kind: 'CloneSet' });
