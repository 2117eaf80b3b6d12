/**
 * The pod writes of a SidecarSet's reconcile (§B.8): hot-upgrade flips first, then the in-place
 * upgrade of this round's pods, then their SidecarSetUpgradable condition. Every write records the
 * resourceVersion it returned, and the reconciler starts no round while the cache has not shown the
 * last one (OpenKruise's ResourceVersionExpectations in its SidecarSet processor): planning from pods
 * as they were before our own patches would pick them again, and count them available.
 */
import type { Pod, SidecarSet } from '@kruise-ts/api';
import { isConflict, isInvalid, isNotFound, keyOf, objectReference } from '@kruise-ts/controller-runtime';
import type {
  DeepReadonly,
  EventReporter,
  JsonPatchOperation,
  ReconcileContext,
  ResourceClient,
} from '@kruise-ts/controller-runtime';
import { asError, POD_WRITE_CONCURRENCY, podResource, settleWithConcurrency } from '@kruise-ts/workload';
import type { ResourceVersionExpectations } from '@kruise-ts/workload';

import { flipPatch } from '../hotupgrade/flip.ts';
import { sidecarSetResource } from '../sidecarset-resource.ts';
import { planUpgrade } from '../upgrade/upgrade-plan.ts';
import type { UpgradeCandidate } from '../upgrade/upgrade-plan.ts';
import { upgradableCondition, upgradableConditionPatch } from '../upgrade/upgradable-condition.ts';
import { sidecarUpgradePatch } from '../upgrade/upgrade-pod.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlySidecarSet = DeepReadonly<SidecarSet>;

/** What the pod writes of one reconcile use. */
export interface UpgradeStepContext {
  readonly pods: Pick<ResourceClient<Pod>, 'patch' | 'patchStatus'>;
  readonly recorder: EventReporter;
  readonly clock: { now(): number };
  readonly logger: ReconcileContext['logger'];
  /** The resourceVersions our pod writes returned, until the cache shows them. */
  readonly resourceVersionExpectations: ResourceVersionExpectations;
}

/** What one round did. */
export interface UpgradeStepResult {
  readonly flipped: number;
  readonly upgraded: number;
}

/** A batch of pod patches: what to patch, and what to report. */
interface PatchReport {
  /** The pod's patch, or undefined to leave it alone. */
  readonly patchOf: (pod: ReadonlyPod) => JsonPatchOperation[] | undefined;
  readonly onPatched?: (pod: ReadonlyPod) => void;
  readonly onFailed?: (pod: ReadonlyPod, error: Error) => void;
}

/** A write refused because the pod changed since it was read (409, or 422 from the patch's resourceVersion test), or is gone. */
function isConflictOrTestFailure(error: unknown): boolean {
  return isConflict(error) || isInvalid(error) || isNotFound(error);
}

/**
 * Hot upgrades waiting for their flip go first (§B.8.5): while any pod is flipped, no other pod
 * starts an upgrade this round (its pod events bring the next round).
 */
export async function syncUpgrades(
  ctx: UpgradeStepContext,
  set: ReadonlySidecarSet,
  candidates: readonly UpgradeCandidate[],
): Promise<UpgradeStepResult> {
  const flipped = await flip(ctx, set, candidates);
  if (flipped > 0) {
    ctx.logger.info({ flipped }, 'Flipped hot-upgrade containers');
    return { flipped, upgraded: 0 };
  }
  return { flipped: 0, upgraded: await upgrade(ctx, set, candidates) };
}

function flip(
  ctx: UpgradeStepContext,
  set: ReadonlySidecarSet,
  candidates: readonly UpgradeCandidate[],
): Promise<number> {
  const name = set.metadata.name ?? '';
  return patchPods(
    ctx,
    candidates.map((candidate) => candidate.pod),
    {
      patchOf: (pod) => flipPatch(pod, set),
      onPatched: (pod) => {
        ctx.recorder.normal(
          objectReference(podResource, pod),
          'ResetContainerSucceed',
          `reset the old sidecar containers of SidecarSet ${name} to the hot upgrade empty image`,
        );
      },
      onFailed: (pod, error) => {
        ctx.recorder.warning(
          objectReference(podResource, pod),
          'ResetContainerFailed',
          `cannot reset the old sidecar containers of SidecarSet ${name}: ${error.message}`,
        );
      },
    },
  );
}

/** Upgrades this round's pods in place; a pod changed meanwhile (its resourceVersion test fails) waits for the next round. */
async function upgrade(
  ctx: UpgradeStepContext,
  set: ReadonlySidecarSet,
  candidates: readonly UpgradeCandidate[],
): Promise<number> {
  const plan = planUpgrade(set, candidates);
  if (plan.notUpgradable.length > 0) {
    const message = `${String(plan.notUpgradable.length)} pod(s) cannot be upgraded in place: more than the sidecar images changed; recreate them to get the new sidecars`;
    ctx.recorder.warning(objectReference(sidecarSetResource, set), 'NotUpgradablePods', message);
  }
  const now = new Date(ctx.clock.now());
  const patched: ReadonlyPod[] = [];
  const upgraded = await patchPods(ctx, plan.upgrade, {
    patchOf: (pod) => sidecarUpgradePatch(pod, set, now),
    onPatched: (pod) => {
      patched.push(pod);
    },
  });
  if (plan.upgrade.length > 0) {
    ctx.logger.info({ upgraded, waiting: plan.upgrade.length - upgraded }, 'Upgraded sidecars in place');
  }
  await writeUpgradable(ctx, set, [
    ...plan.notUpgradable.map((pod) => ({ pod, upgradable: false })),
    ...patched.map((pod) => ({ pod, upgradable: true })),
  ]);
  return upgraded;
}

/**
 * The pods' SidecarSetUpgradable condition, through their status subresource as OpenKruise writes
 * it: false for pods this SidecarSet cannot upgrade in place, true for those it just upgraded; no
 * write when the cached pod already says so. A pod gone meanwhile is skipped.
 */
async function writeUpgradable(
  ctx: UpgradeStepContext,
  set: ReadonlySidecarSet,
  pods: readonly { readonly pod: ReadonlyPod; readonly upgradable: boolean }[],
): Promise<void> {
  const now = new Date(ctx.clock.now());
  const work = pods.flatMap(({ pod, upgradable }) => {
    const condition = upgradableCondition(pod, { name: set.metadata.name ?? '', upgradable }, now);
    return condition === undefined ? [] : [{ pod, condition }];
  });
  const outcomes = await settleWithConcurrency(work, POD_WRITE_CONCURRENCY, async ({ pod, condition }) => {
    ctx.resourceVersionExpectations.expect(
      await ctx.pods.patchStatus(keyOf(pod), { type: 'strategic', body: upgradableConditionPatch(condition) }),
    );
  });
  const failed = outcomes.flatMap((outcome) =>
    outcome.status === 'rejected' && !isNotFound(outcome.reason) ? [outcome.reason as unknown] : [],
  );
  if (failed.length > 0) {
    throw asError(failed[0]);
  }
}

/**
 * Patches pods concurrently; returns how many were patched. A pod that changed since it was read or
 * is gone waits for the next round; any other failure is thrown after all patches settled.
 */
async function patchPods(ctx: UpgradeStepContext, pods: readonly ReadonlyPod[], report: PatchReport): Promise<number> {
  const work = pods.flatMap((pod) => {
    const patch = report.patchOf(pod);
    return patch === undefined ? [] : [{ pod, patch }];
  });
  const outcomes = await settleWithConcurrency(work, POD_WRITE_CONCURRENCY, async ({ pod, patch }) => {
    try {
      ctx.resourceVersionExpectations.expect(await ctx.pods.patch(keyOf(pod), { type: 'json', body: patch }));
      report.onPatched?.(pod);
    } catch (error) {
      if (!isConflictOrTestFailure(error)) {
        report.onFailed?.(pod, asError(error));
      }
      throw error;
    }
  });
  const failed = outcomes
    .filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
    .map((outcome) => outcome.reason as unknown);
  const real = failed.filter((error) => !isConflictOrTestFailure(error));
  if (real.length > 0) {
    throw asError(real[0]);
  }
  return work.length - failed.length;
}
