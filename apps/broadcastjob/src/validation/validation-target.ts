/**
 * What a BroadcastJob would create, for a dry run: the pod the controller makes for a node (the real
 * factory: the job's labels, `<job>-` as generateName, the binding to the node), no claims. The node
 * and the job's uid are placeholders of real shapes: a 36-character uid (a create under admission
 * has none yet, and one placeholder lets the webhook's verdict serve the controller's check of the
 * same job), a node name; so one template gives one cache key. No owner reference: the job may not
 * exist yet, and ours is valid by construction.
 */
import type { BroadcastJob, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { podTemplateMapping } from '@kruise-ts/template-validation';
import type { ValidationTarget } from '@kruise-ts/template-validation';

import { newJobPod } from '../job/job-pod.ts';
import { pinnedToNode } from '../nodes/pod-node.ts';

/** The controller option that changes what a pod looks like. */
export interface PodShapeOptions {
  /** `--assign-bcj-pods-by-scheduler`: bound by node affinity (true) or by spec.nodeName. */
  readonly assignPodsByScheduler: boolean;
}

const PLACEHOLDER_UID = '00000000-0000-0000-0000-000000000000';
const PLACEHOLDER_NODE = 'node';

function withoutOwners(pod: Pod): Pod {
  const metadata = { ...pod.metadata };
  delete metadata.ownerReferences;
  return { ...pod, metadata };
}

/** The pod a job creates on a node, with its field mapping. */
export function broadcastJobValidationTarget(
  job: DeepReadonly<BroadcastJob>,
  options: PodShapeOptions,
): ValidationTarget {
  const placeholder: DeepReadonly<BroadcastJob> = { ...job, metadata: { ...job.metadata, uid: PLACEHOLDER_UID } };
  const pod = withoutOwners(
    newJobPod(placeholder, PLACEHOLDER_NODE, { byScheduler: options.assignPodsByScheduler, pin: pinnedToNode }),
  );
  return {
    pod,
    podMapping: podTemplateMapping(pod, [], { template: 'spec.template', name: 'metadata.name' }),
    claims: [],
  };
}
