import { LIFECYCLE_STATE_LABEL, LIFECYCLE_TIMESTAMP_ANNOTATION } from '@kruise-ts/api';
import type { LifecycleState, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { completeInPlaceUpdate, completionConditions, isInPlaceUpdateCompleted, refreshInPlaceUpdate } from '@kruise-ts/inplace-update';
import { inPlaceUpdateStateDecision, lifecycleTimestamp, setLifecycleState } from '@kruise-ts/lifecycle';
import type { InPlaceUpdateStateDecision } from '@kruise-ts/lifecycle';
import { isPodAtRevision, podRevision, shortHash } from '@kruise-ts/revision';
import { mapWithConcurrency, POD_WRITE_CONCURRENCY, podResource } from '@kruise-ts/workload';

import { revisionNameOf } from './sync-context.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

type ReadonlyPod = DeepReadonly<Pod>;

const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/**
 * OpenKruise's `refreshPodState` for every pod, before any update: finish in-place updates (the
 * grace period, then the image patch; completion once the containers run the new images), move
 * lifecycle states along (PreparingNormal → Normal, Updating → Updated/Normal, Updated → Normal,
 * PreparingUpdate at the update revision → Updated/Normal), and give pods without
 * `pod-template-hash` the label. Returns whether any pod was written: then the update step waits
 * for the next reconcile, which sees the writes.
 */
export async function refreshPods(ctx: SyncContext, state: SyncState): Promise<boolean> {
  const written = await mapWithConcurrency(state.pods, POD_WRITE_CONCURRENCY, (pod) => refreshPod(ctx, state, pod));
  let modified = false;
  for (const [index, pod] of written.entries()) {
    if (pod !== state.pods[index]) {
      ctx.resourceVersionExpectations.expect(pod);
      modified = true;
    }
  }
  return modified;
}

async function refreshPod(ctx: SyncContext, state: SyncState, pod: ReadonlyPod): Promise<ReadonlyPod> {
  const verticalScaling = ctx.gates.enabled('InPlaceWorkloadVerticalScaling');
  const refreshed = await refreshInPlaceUpdate({ client: ctx.client, pod, now: ctx.now(), verticalScaling });
  if (refreshed.delayMs !== undefined) {
    ctx.requeue.push(refreshed.delayMs, 'in-place update grace period');
  }
  if (refreshed.writes > 0) {
    return refreshed.pod;
  }
  const completed = isInPlaceUpdateCompleted(pod, { verticalScaling });
  const decision = inPlaceUpdateStateDecision(pod, state.cs.spec.lifecycle, {
    step: 'refresh',
    atUpdateRevision: isPodAtRevision(pod, revisionNameOf(state.updateRevision)),
    updateCompleted: completed,
  });
  const finishing = completed && completionConditions(pod, ctx.now()).length > 0;
  if (finishing) {
    return finishInPlaceUpdate(ctx, pod, decision);
  }
  if (decision.action === 'setState') {
    return setLifecycleState({ client: ctx.client, pod, state: decision.state, markPodNotReady: decision.markPodNotReady, now: ctx.now(), reapplyHook: decision.reapplyHook });
  }
  return fixPodTemplateHash(ctx, pod);
}

/**
 * The in-place update is done: InPlaceUpdateReady goes back to True and, when the lifecycle moves
 * on too, its label goes in the same pods/status write. A transition that changes KruisePodReady
 * (markPodNotReady) is written first by the lifecycle writer, then the completion.
 */
async function finishInPlaceUpdate(ctx: SyncContext, pod: ReadonlyPod, decision: InPlaceUpdateStateDecision): Promise<ReadonlyPod> {
  const now = ctx.now();
  if (decision.action === 'setState' && (decision.markPodNotReady || decision.reapplyHook !== undefined)) {
    const transitioned = await setLifecycleState({ client: ctx.client, pod, state: decision.state, markPodNotReady: decision.markPodNotReady, now, reapplyHook: decision.reapplyHook });
    return (await completeInPlaceUpdate({ client: ctx.client, pod: transitioned, now })).pod;
  }
  const lifecycle = decision.action === 'setState' ? lifecycleMetadata(decision.state, now) : {};
  return (await completeInPlaceUpdate({ client: ctx.client, pod, now, ...lifecycle })).pod;
}

function lifecycleMetadata(state: LifecycleState, now: number): { labels: Record<string, string>; annotations: Record<string, string> } {
  return { labels: { [LIFECYCLE_STATE_LABEL]: state }, annotations: { [LIFECYCLE_TIMESTAMP_ANNOTATION]: lifecycleTimestamp(now) } };
}

/** Pods made before the label existed (or by other tools) get `pod-template-hash` from their revision. */
async function fixPodTemplateHash(ctx: SyncContext, pod: ReadonlyPod): Promise<ReadonlyPod> {
  const revision = podRevision(pod);
  if (revision === undefined || pod.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL] !== undefined) {
    return pod;
  }
  return ctx.client.patch(podResource, { namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' }, {
    type: 'strategic',
    body: { metadata: { labels: { [POD_TEMPLATE_HASH_LABEL]: shortHash(revision) } } },
  });
}
