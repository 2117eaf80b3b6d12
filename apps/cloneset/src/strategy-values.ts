import { parseIntOrPercent, scaledValueFromIntOrPercent } from '@kruise-ts/api';
import type { CloneSet, IntOrString } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/** The numbers a CloneSet's strategies resolve to for its current replicas. */
export interface ResolvedStrategy {
  readonly replicas: number;
  /** Pods to keep at old revisions (updateStrategy.partition resolved). */
  readonly partition: number;
  readonly maxSurge: number;
  readonly maxUnavailable: number;
  /** scaleStrategy.maxUnavailable resolved; MAX_SAFE_INTEGER when unset (no limit). */
  readonly scaleMaxUnavailable: number;
  readonly paused: boolean;
}

/**
 * `updateStrategy.partition` as a pod count, with OpenKruise's rules (`CalculatePartitionReplicas`):
 * percentages round up, but a percentage other than exactly "100%" that rounds up to all replicas
 * keeps one pod updatable; the result is clamped to [0, replicas].
 * Examples: 5 replicas, "99%" ⇒ ceil(4.95) = 5 ⇒ 4; "100%" ⇒ 5; 10 replicas, "15%" ⇒ 2; 5 replicas, 7 ⇒ 5.
 */
export function partitionReplicas(partition: IntOrString | undefined, replicas: number): number {
  if (partition === undefined) {
    return 0;
  }
  const resolved = scaledValueFromIntOrPercent({ value: partition, total: replicas, roundUp: true });
  const isPercent = typeof partition === 'string';
  const keepsOneUpdatable = replicas > 1 && resolved === replicas && isPercent && partition.trim() !== '100%';
  return Math.min(Math.max(keepsOneUpdatable ? replicas - 1 : resolved, 0), replicas);
}

/**
 * Resolves an int-or-percent against replicas. OpenKruise's controller resolves maxSurge and
 * maxUnavailable with Kubernetes' integer-only scaler, so a fractional percentage such as "12.5%"
 * that its webhook accepts silently becomes 0; we resolve fractional percentages like the webhook
 * validates them.
 */
function resolve(value: IntOrString | undefined, replicas: number, roundUp: boolean): number | undefined {
  if (value === undefined || parseIntOrPercent(value) === undefined) {
    return undefined;
  }
  return scaledValueFromIntOrPercent({ value, total: replicas, roundUp });
}

/**
 * Resolves every strategy number OpenKruise's `calculateDiffsWithExpectation` uses: maxSurge rounds
 * up and is 0 while paused; maxUnavailable defaults to 20% and rounds up when there is no surge and
 * down when there is; scaleStrategy.maxUnavailable rounds up and is unlimited when unset.
 */
export function resolveStrategy(cs: DeepReadonly<CloneSet>): ResolvedStrategy {
  const replicas = cs.spec.replicas;
  const update = cs.spec.updateStrategy;
  const paused = update.paused === true;
  const maxSurge = paused ? 0 : (resolve(update.maxSurge, replicas, true) ?? 0);
  return {
    replicas,
    partition: partitionReplicas(update.partition, replicas),
    maxSurge,
    maxUnavailable: resolve(update.maxUnavailable, replicas, maxSurge === 0) ?? 0,
    scaleMaxUnavailable: resolve(cs.spec.scaleStrategy?.maxUnavailable, replicas, true) ?? Number.MAX_SAFE_INTEGER,
    paused,
  };
}
