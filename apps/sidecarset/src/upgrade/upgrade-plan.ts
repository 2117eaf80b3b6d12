/**
 * Which injected pods a SidecarSet upgrades this round (§B.8.3): pods not at the SidecarSet's hash,
 * selected by `updateStrategy.selector`, whose change is only images (the hash without image agrees)
 * and that have no upgrade in flight (their own, or their workload's in-place update); in the shared update order (active pods, priority, scatter),
 * the last `partition` kept on the old sidecars, then within `maxUnavailable` (rounded up): pods that
 * are not ready are taken without spending it, ready ones spend one each.
 */
import { parseIntOrPercent } from '@kruise-ts/api';
import type { Pod, SidecarSet } from '@kruise-ts/api';
import { matchesLabelSelector } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { sortUpdateCandidates } from '@kruise-ts/workload';

type ReadonlyPod = DeepReadonly<Pod>;

/** One counted pod (matched, injected, with the sidecars) and what the controller knows of it. */
export interface UpgradeCandidate {
  readonly pod: ReadonlyPod;
  /** At the SidecarSet's hash. */
  readonly updated: boolean;
  /** Its hash without image agrees: the difference is images only. */
  readonly imagesOnly: boolean;
  /** The kubelet runs what the spec says (no upgrade in flight). */
  readonly consistent: boolean;
  readonly ready: boolean;
  /**
   * Its workload (CloneSet, Advanced StatefulSet) is updating it in place (InPlaceUpdateReady is False
   * or a grace period is pending): its sidecars wait, so that the two updates never restart the pod's
   * containers at the same moment.
   */
  readonly workloadUpdating: boolean;
}

/** The decision: the pods to upgrade, and those that cannot be upgraded in place. */
export interface UpgradePlan {
  readonly upgrade: readonly ReadonlyPod[];
  readonly notUpgradable: readonly ReadonlyPod[];
}

/** `partition` as a number of pods: percentages round up, but a percentage below 100% never keeps every pod (OpenKruise's rule). */
export function partitionCount(partition: number | string, total: number): number {
  const parsed = parseIntOrPercent(partition);
  if (parsed === undefined) {
    return 0;
  }
  if (parsed.kind === 'int') {
    return Math.min(Math.max(parsed.value, 0), total);
  }
  const count = Math.min(Math.ceil((parsed.value * total) / 100), total);
  return total > 1 && count === total && parsed.value < 100 ? total - 1 : count;
}

/** `maxUnavailable` as a number of pods, percentages rounded up. */
export function maxUnavailableCount(maxUnavailable: number | string, total: number): number {
  const parsed = parseIntOrPercent(maxUnavailable);
  if (parsed === undefined) {
    return 1;
  }
  return parsed.kind === 'int' ? parsed.value : Math.ceil((parsed.value * total) / 100);
}

/** The pods to upgrade this round. */
export function planUpgrade(set: DeepReadonly<SidecarSet>, candidates: readonly UpgradeCandidate[]): UpgradePlan {
  const strategy = set.spec.updateStrategy;
  const selector = strategy.selector;
  const waiting = candidates.filter(
    (candidate) =>
      !candidate.updated && (selector === undefined || matchesLabelSelector(selector, candidate.pod.metadata?.labels)),
  );
  const notUpgradable = waiting.filter((candidate) => !candidate.imagesOnly).map((candidate) => candidate.pod);
  const ready = new Map(candidates.map((candidate) => [candidate.pod, candidate]));
  const wait = waiting
    .filter((candidate) => candidate.imagesOnly && candidate.consistent && !candidate.workloadUpdating)
    .map((candidate) => candidate.pod);
  const total = candidates.length;
  const sorted = sortUpdateCandidates(wait, {
    priorityStrategy: strategy.priorityStrategy,
    scatterStrategy: strategy.scatterStrategy,
    allPods: candidates.map((candidate) => candidate.pod),
    isPreparingUpdate: () => false,
  });
  const allowed = sorted.slice(0, Math.max(0, sorted.length - partitionCount(strategy.partition, total)));
  const budget = maxUnavailableCount(strategy.maxUnavailable, total);
  let unavailable = candidates.filter(
    (candidate) => candidate.updated && !(candidate.consistent && candidate.ready),
  ).length;
  const upgrade: ReadonlyPod[] = [];
  for (const pod of allowed) {
    const candidate = ready.get(pod);
    if (candidate?.ready !== true) {
      upgrade.push(pod);
    } else if (unavailable < budget) {
      upgrade.push(pod);
      unavailable += 1;
    }
  }
  return { upgrade, notUpgradable };
}
