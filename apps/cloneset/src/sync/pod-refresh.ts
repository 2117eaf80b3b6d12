import { LIFECYCLE_STATE_LABEL, LIFECYCLE_TIMESTAMP_ANNOTATION } from '@kruise-ts/api';
import type { LifecycleState, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { completeInPlaceUpdate, completionConditions, inPlaceRefreshPending, isInPlaceUpdateCompleted, refreshInPlaceUpdate } from '@kruise-ts/inplace-update';
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
 * `pod-template-hash` the label. Returns the pods with the ones it wrote replaced by the API server's
 * answers, and how many it wrote.
 */
export async function refreshPods(ctx: SyncContext, state: SyncState): Promise<{ readonly pods: readonly ReadonlyPod[]; readonly written: number }> {
  const now = ctx.now();
  const verticalScaling = ctx.gates.enabled('InPlaceWorkloadVerticalScaling');
  // Most pods have nothing to refresh; deciding that synchronously keeps a reconcile of thousands of
  // settled pods free of a promise per pod.
  const pending = state.pods.flatMap((pod, index): (PendingRefresh & { readonly index: number })[] => {
    const action = refreshAction({ state, pod, now, verticalScaling });
    return action.kind === 'none' ? [] : [{ pod, action, index }];
  });
  if (pending.length === 0) {
    return { pods: state.pods, written: 0 };
  }
  const results = await mapWithConcurrency(pending, POD_WRITE_CONCURRENCY, (refresh) => refreshPod(ctx, state, refresh));
  const pods = [...state.pods];
  let written = 0;
  for (const [position, refresh] of pending.entries()) {
    const result = results[position];
    if (result !== undefined && result !== refresh.pod) {
      ctx.resourceVersionExpectations.expect(result);
      pods[refresh.index] = result;
      written++;
    }
  }
  return { pods, written };
}

/** What the refresh of one pod does, decided without I/O. */
type RefreshAction =
  /** A grace period or deferred batch: the in-place refresh runs first (it may write and decide again). */
  | { readonly kind: 'inPlace' }
  | { readonly kind: 'finish'; readonly decision: InPlaceUpdateStateDecision }
  | { readonly kind: 'setState'; readonly decision: Extract<InPlaceUpdateStateDecision, { action: 'setState' }> }
  | { readonly kind: 'podTemplateHash'; readonly revision: string }
  | { readonly kind: 'none' };

interface RefreshInput {
  readonly state: SyncState;
  readonly pod: ReadonlyPod;
  readonly now: number;
  readonly verticalScaling: boolean;
}

function refreshAction(input: RefreshInput): RefreshAction {
  return inPlaceRefreshPending(input.pod) ? { kind: 'inPlace' } : settledAction(input);
}

/** The action once the in-place refresh has nothing (more) to write. */
function settledAction({ state, pod, now, verticalScaling }: RefreshInput): RefreshAction {
  const completed = isInPlaceUpdateCompleted(pod, { verticalScaling });
  const decision = inPlaceUpdateStateDecision(pod, state.cs.spec.lifecycle, {
    step: 'refresh',
    atUpdateRevision: isPodAtRevision(pod, revisionNameOf(state.updateRevision)),
    updateCompleted: completed,
  });
  if (completed && completionConditions(pod, now).length > 0) {
    return { kind: 'finish', decision };
  }
  if (decision.action === 'setState') {
    return { kind: 'setState', decision };
  }
  // Pods made before the label existed (or by other tools) get `pod-template-hash` from their revision.
  const revision = podRevision(pod);
  return revision === undefined || pod.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL] !== undefined ? { kind: 'none' } : { kind: 'podTemplateHash', revision };
}

interface PendingRefresh {
  readonly pod: ReadonlyPod;
  readonly action: Exclude<RefreshAction, { kind: 'none' }>;
}

async function refreshPod(ctx: SyncContext, state: SyncState, { pod, action }: PendingRefresh): Promise<ReadonlyPod> {
  if (action.kind === 'inPlace') {
    return refreshInPlace(ctx, state, pod);
  }
  const now = ctx.now();
  switch (action.kind) {
    case 'finish':
      return finishInPlaceUpdate(ctx, pod, action.decision);
    case 'setState': {
      const { decision } = action;
      return setLifecycleState({ client: ctx.client, pod, state: decision.state, markPodNotReady: decision.markPodNotReady, now, reapplyHook: decision.reapplyHook });
    }
    case 'podTemplateHash':
      return ctx.client.patch(podResource, { namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' }, {
        type: 'strategic',
        body: { metadata: { labels: { [POD_TEMPLATE_HASH_LABEL]: shortHash(action.revision) } } },
      });
  }
}

/** Grace periods and deferred batches first; when they wrote nothing, the settled pod's action. */
async function refreshInPlace(ctx: SyncContext, state: SyncState, pod: ReadonlyPod): Promise<ReadonlyPod> {
  const now = ctx.now();
  const verticalScaling = ctx.gates.enabled('InPlaceWorkloadVerticalScaling');
  const refreshed = await refreshInPlaceUpdate({ client: ctx.client, pod, now, verticalScaling });
  if (refreshed.delayMs !== undefined) {
    ctx.requeue.push(refreshed.delayMs, 'in-place update grace period');
  }
  if (refreshed.writes > 0) {
    return refreshed.pod;
  }
  const settled = settledAction({ state, pod, now, verticalScaling });
  return settled.kind === 'none' ? pod : refreshPod(ctx, state, { pod, action: settled });
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

