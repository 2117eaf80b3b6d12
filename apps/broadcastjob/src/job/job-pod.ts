/**
 * The pod a BroadcastJob runs on a node (§C.5): the template with the job's two labels, named
 * `<job>-<random>`, controlled by the job, and bound to its node (by default through a required node
 * affinity on `metadata.name`, which the scheduler honours, as OpenKruise's
 * `--assign-bcj-pods-by-scheduler=true`; else through `spec.nodeName`).
 */
import { BROADCASTJOB_CONTROLLER_UID_LABEL, BROADCASTJOB_NAME_LABEL } from '@kruise-ts/api';
import type { BroadcastJob, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

type PodSpec = NonNullable<Pod['spec']>;

/** The job's two labels (they select its pods). */
export function jobLabels(job: DeepReadonly<BroadcastJob>): Record<string, string> {
  return {
    [BROADCASTJOB_NAME_LABEL]: job.metadata.name ?? '',
    [BROADCASTJOB_CONTROLLER_UID_LABEL]: job.metadata.uid ?? '',
  };
}

/** How a pod is bound to its node. */
export interface PodBinding {
  /** True: node affinity, the scheduler binds; false: spec.nodeName. */
  readonly byScheduler: boolean;
  /** The spec with its required node affinity replaced by the node's name. */
  readonly pin: (spec: DeepReadonly<PodSpec>, node: string) => PodSpec;
}

/**
 * The template's pod as the fitness check sees it, one for every node (OpenKruise's mock pod is the
 * template with the node's name; an empty `nodeName` matches every node the same way). Not a copy:
 * it shares the template's read-only parts, as the check only reads.
 */
export function templatePod(job: DeepReadonly<BroadcastJob>): DeepReadonly<Pod> {
  const spec = job.spec.template.spec ?? { containers: [] };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace: job.metadata.namespace ?? '',
      labels: { ...job.spec.template.metadata?.labels, ...jobLabels(job) },
    },
    spec: { ...spec, nodeName: '' },
  };
}

/** The pod to create for a node. */
export function newJobPod(job: DeepReadonly<BroadcastJob>, node: string, binding: PodBinding): Pod {
  const template = job.spec.template;
  const spec = structuredClone(template.spec ?? { containers: [] }) as PodSpec;
  const annotations = template.metadata?.annotations;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${job.metadata.name ?? ''}-`,
      namespace: job.metadata.namespace ?? '',
      labels: { ...template.metadata?.labels, ...jobLabels(job) },
      ...(annotations === undefined ? {} : { annotations: { ...annotations } }),
      ownerReferences: [
        {
          apiVersion: job.apiVersion,
          kind: job.kind,
          name: job.metadata.name ?? '',
          uid: job.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: binding.byScheduler ? binding.pin(spec, node) : { ...spec, nodeName: node },
  };
}
