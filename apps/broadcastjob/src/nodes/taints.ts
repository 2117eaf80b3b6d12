/**
 * Taints and tolerations as the scheduler reads them (core/v1 `Toleration.ToleratesTaint` and
 * `FindMatchingUntoleratedTaint`).
 */
import type { Node, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/** A node taint. */
export type Taint = DeepReadonly<NonNullable<NonNullable<Node['spec']>['taints']>[number]>;
/** A pod toleration. */
export type Toleration = DeepReadonly<NonNullable<NonNullable<Pod['spec']>['tolerations']>[number]>;

/** The taint kubelet's `unschedulable` stands for: tolerating it lets a pod onto a cordoned node. */
export const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

/** An empty toleration field stands for any value of the taint's. */
function covers(tolerated: string | undefined, actual: string): boolean {
  return (tolerated ?? '') === '' || tolerated === actual;
}

/**
 * An empty effect tolerates every effect, an empty key with `Exists` every taint; an empty operator
 * means `Equal`, and an operator the API does not know tolerates nothing.
 */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (!covers(toleration.effect, taint.effect) || !covers(toleration.key, taint.key)) {
    return false;
  }
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** Whether any of the tolerations tolerates the taint. */
export function tolerationsTolerate(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((toleration) => toleratesTaint(toleration, taint));
}

/** The first NoSchedule or NoExecute taint that no toleration tolerates (PreferNoSchedule only scores). */
export function untoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
): Taint | undefined {
  return (taints ?? []).find(
    (taint) =>
      (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !tolerationsTolerate(tolerations, taint),
  );
}
