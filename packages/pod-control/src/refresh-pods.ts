/**
 * Refreshing a workload's pods every reconcile (OpenKruise's `refreshPodState`, the same for CloneSet
 * and Advanced StatefulSet): in-place updates finished, lifecycle states moved along.
 */
import { LIFECYCLE_STATE_LABEL, LIFECYCLE_TIMESTAMP_ANNOTATION } from '@kruise-ts/api';
import type { LifecycleState, Pod } from '@kruise-ts/api';
import { keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import {
  completeInPlaceUpdate,
  completionConditions,
  InPlaceUpdateAnnotationError,
  inPlaceRefreshPending,
  inPlaceUpdateAnnotationProblem,
  isInPlaceUpdateCompleted,
  refreshInPlaceUpdate,
} from '@kruise-ts/inplace-update';
import { inPlaceUpdateStateDecision, lifecycleTimestamp, setLifecycleState } from '@kruise-ts/lifecycle';
import type { InPlaceUpdateStateDecision } from '@kruise-ts/lifecycle';
import { isPodAtRevision, podRevision, shortHash } from '@kruise-ts/revision';
import { POD_WRITE_CONCURRENCY, settleWithConcurrency } from '@kruise-ts/workload';

import type { PodControlContext, PodOwner } from './context.ts';

/** What the refresh needs. */
export type RefreshContext = Pick<
  PodControlContext,
  'pods' | 'clock' | 'gates' | 'resourceVersionExpectations' | 'requeue'
>;

/** The pods to refresh and how their workload marks them. */
export interface RefreshInput {
  readonly owner: PodOwner;
  readonly pods: readonly ReadonlyPod[];
  /** The update revision's name: PreparingUpdate at it (a rollback during the hook) moves on. */
  readonly updateRevision: string;
  /** Give pods without `pod-template-hash` the label from their revision (CloneSet does, as Deployments' pods have it). */
  readonly podTemplateHashLabel: boolean;
}

type ReadonlyPod = DeepReadonly<Pod>;

const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** A pod the refresh could not handle and left as it is, with why (for the Event and the condition). */
export interface SkippedPod {
  readonly name: string;
  readonly reason: string;
}

/** What {@link refreshPods} did. */
export interface RefreshResult {
  /** The pods, the ones written replaced by the API server's answers. */
  readonly pods: readonly ReadonlyPod[];
  readonly written: number;
  /** Pods whose in-place update annotations cannot be read: never written, not to be updated. */
  readonly skipped: readonly SkippedPod[];
}

/** Thrown after the refresh's bookkeeping when a write failed; `result` has what went through. */
export class RefreshError extends Error {
  readonly result: RefreshResult;

  constructor(cause: unknown, result: RefreshResult) {
    super(`refreshing pods failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'RefreshError';
    this.result = result;
  }
}

/**
 * OpenKruise's `refreshPodState` for every pod, before any update: finish in-place updates (the
 * grace period, then the image patch; completion once the containers run the new images), move
 * lifecycle states along (PreparingNormal → Normal, Updating → Updated/Normal, Updated → Normal,
 * PreparingUpdate at the update revision → Updated/Normal), and give pods without
 * `pod-template-hash` the label when the workload wants it. A pod whose in-place update annotations cannot be read is skipped
 * and returned as such (OpenKruise fails the whole reconcile on it, so one bad pod stopped every
 * other pod's update). Every pod is tried; when a write failed, a RefreshError is thrown after the
 * resourceVersion expectations of the writes that went through are recorded.
 */
export async function refreshPods(ctx: RefreshContext, input: RefreshInput): Promise<RefreshResult> {
  const now = ctx.clock.now();
  const verticalScaling = ctx.gates.enabled('InPlaceWorkloadVerticalScaling');
  const skipped: SkippedPod[] = [];
  // Most pods have nothing to refresh; deciding that synchronously keeps a reconcile of thousands of
  // settled pods free of a promise per pod.
  const pending = input.pods.flatMap((pod, index): (PendingRefresh & { readonly index: number })[] => {
    const problem = inPlaceUpdateAnnotationProblem(pod);
    if (problem !== undefined) {
      skipped.push({ name: pod.metadata?.name ?? '', reason: problem });
      return [];
    }
    const action = refreshAction({ input, pod, now, verticalScaling });
    return action.kind === 'none' ? [] : [{ pod, action, index }];
  });
  if (pending.length === 0) {
    return { pods: input.pods, written: 0, skipped };
  }
  const results = await settleWithConcurrency(pending, POD_WRITE_CONCURRENCY, (refresh) =>
    refreshPod(ctx, input, refresh),
  );
  return collectRefreshes(ctx, { pods: input.pods, pending, results, skipped });
}

/**
 * A pod whose in-place update annotations turned out unreadable (InPlaceUpdateAnnotationError) is
 * added to `skipped`; any other error is returned as a failure of the step.
 */
export function skipOrFail(
  error: unknown,
  into: { readonly pod: string; readonly skipped: SkippedPod[] },
): { readonly error: unknown } | undefined {
  if (error instanceof InPlaceUpdateAnnotationError) {
    into.skipped.push({ name: into.pod, reason: error.detail });
    return undefined;
  }
  return { error };
}

/** Records what the refresh wrote (expectations, the pods as written); throws the first failure after. */
function collectRefreshes(
  ctx: Pick<RefreshContext, 'resourceVersionExpectations'>,
  input: {
    pods: readonly ReadonlyPod[];
    pending: readonly (PendingRefresh & { readonly index: number })[];
    results: readonly PromiseSettledResult<ReadonlyPod>[];
    skipped: SkippedPod[];
  },
): RefreshResult {
  const pods = [...input.pods];
  const { skipped } = input;
  let written = 0;
  let failure: { readonly error: unknown } | undefined;
  for (const [position, refresh] of input.pending.entries()) {
    const result = input.results[position];
    if (result?.status === 'rejected') {
      // A pod read again after a Conflict and found unreadable is skipped like the ones found up front.
      failure ??= skipOrFail(result.reason, { pod: refresh.pod.metadata?.name ?? '', skipped });
    } else if (result !== undefined && result.value !== refresh.pod) {
      ctx.resourceVersionExpectations.expect(result.value);
      pods[refresh.index] = result.value;
      written++;
    }
  }
  const done: RefreshResult = { pods, written, skipped };
  if (failure !== undefined) {
    throw new RefreshError(failure.error, done);
  }
  return done;
}

/** What the refresh of one pod does, decided without I/O. */
type RefreshAction =
  /** A grace period or deferred batch: the in-place refresh runs first (it may write and decide again). */
  | { readonly kind: 'inPlace' }
  | { readonly kind: 'finish'; readonly decision: InPlaceUpdateStateDecision }
  | { readonly kind: 'setState'; readonly decision: Extract<InPlaceUpdateStateDecision, { action: 'setState' }> }
  | { readonly kind: 'podTemplateHash'; readonly revision: string }
  | { readonly kind: 'none' };

interface PodRefreshInput {
  readonly input: RefreshInput;
  readonly pod: ReadonlyPod;
  readonly now: number;
  readonly verticalScaling: boolean;
}

function refreshAction(podInput: PodRefreshInput): RefreshAction {
  return inPlaceRefreshPending(podInput.pod) ? { kind: 'inPlace' } : settledAction(podInput);
}

/** The action once the in-place refresh has nothing (more) to write. */
function settledAction({ input, pod, now, verticalScaling }: PodRefreshInput): RefreshAction {
  const completed = isInPlaceUpdateCompleted(pod, { verticalScaling });
  const decision = inPlaceUpdateStateDecision(pod, input.owner.lifecycle, {
    step: 'refresh',
    atUpdateRevision: isPodAtRevision(pod, input.updateRevision),
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
  return !input.podTemplateHashLabel ||
    revision === undefined ||
    pod.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL] !== undefined
    ? { kind: 'none' }
    : { kind: 'podTemplateHash', revision };
}

interface PendingRefresh {
  readonly pod: ReadonlyPod;
  readonly action: Exclude<RefreshAction, { kind: 'none' }>;
}

async function refreshPod(
  ctx: RefreshContext,
  input: RefreshInput,
  { pod, action }: PendingRefresh,
): Promise<ReadonlyPod> {
  if (action.kind === 'inPlace') {
    return refreshInPlace(ctx, input, pod);
  }
  const now = ctx.clock.now();
  switch (action.kind) {
    case 'finish':
      return finishInPlaceUpdate(ctx, pod, action.decision);
    case 'setState': {
      const { decision } = action;
      return setLifecycleState({
        client: ctx.pods,
        pod,
        state: decision.state,
        markPodNotReady: decision.markPodNotReady,
        now,
        reapplyHook: decision.reapplyHook,
      });
    }
    case 'podTemplateHash':
      return ctx.pods.patch(keyOf(pod), {
        type: 'strategic',
        body: { metadata: { labels: { [POD_TEMPLATE_HASH_LABEL]: shortHash(action.revision) } } },
      });
  }
}

/** Grace periods and deferred batches first; when they wrote nothing, the settled pod's action. */
async function refreshInPlace(ctx: RefreshContext, input: RefreshInput, pod: ReadonlyPod): Promise<ReadonlyPod> {
  const now = ctx.clock.now();
  const verticalScaling = ctx.gates.enabled('InPlaceWorkloadVerticalScaling');
  const refreshed = await refreshInPlaceUpdate({ client: ctx.pods, pod, now, verticalScaling });
  if (refreshed.delayMs !== undefined) {
    ctx.requeue.push(refreshed.delayMs, 'in-place update grace period');
  }
  if (refreshed.writes > 0) {
    return refreshed.pod;
  }
  const settled = settledAction({ input, pod, now, verticalScaling });
  return settled.kind === 'none' ? pod : refreshPod(ctx, input, { pod, action: settled });
}

/**
 * The in-place update is done: InPlaceUpdateReady goes back to True and, when the lifecycle moves
 * on too, its label goes in the same pods/status write. A transition that changes KruisePodReady
 * (markPodNotReady) is written first by the lifecycle writer, then the completion.
 */
async function finishInPlaceUpdate(
  ctx: RefreshContext,
  pod: ReadonlyPod,
  decision: InPlaceUpdateStateDecision,
): Promise<ReadonlyPod> {
  const now = ctx.clock.now();
  if (decision.action === 'setState' && (decision.markPodNotReady || decision.reapplyHook !== undefined)) {
    const transitioned = await setLifecycleState({
      client: ctx.pods,
      pod,
      state: decision.state,
      markPodNotReady: decision.markPodNotReady,
      now,
      reapplyHook: decision.reapplyHook,
    });
    return (await completeInPlaceUpdate({ client: ctx.pods, pod: transitioned, now })).pod;
  }
  const lifecycle = decision.action === 'setState' ? lifecycleMetadata(decision.state, now) : {};
  return (await completeInPlaceUpdate({ client: ctx.pods, pod, now, ...lifecycle })).pod;
}

function lifecycleMetadata(
  state: LifecycleState,
  now: number,
): { labels: Record<string, string>; annotations: Record<string, string> } {
  return {
    labels: { [LIFECYCLE_STATE_LABEL]: state },
    annotations: { [LIFECYCLE_TIMESTAMP_ANNOTATION]: lifecycleTimestamp(now) },
  };
}
