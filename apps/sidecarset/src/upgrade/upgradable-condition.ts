/**
 * The pod condition `SidecarSetUpgradable`, as OpenKruise's SidecarSet processor writes it
 * (updatePodSidecarSetUpgradableCondition): its message is a JSON object of every SidecarSet that
 * looked at the pod and whether it could upgrade its sidecars in place (`{"a":true,"b":false}`, keys
 * sorted as Go marshals a map); the status is True (reason `AllSidecarsetUpgradable`) only when every
 * one could, else False (reason `UpdateImmutableField`: more than the images changed). Written after an
 * in-place upgrade (true) and for pods the upgrade skips as not upgradable (false), only when it
 * changes, as one strategic merge patch of the pod's status subresource.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/** OpenKruise's condition type (sidecarcontrol.SidecarSetUpgradable). */
export const SIDECARSET_UPGRADABLE_CONDITION = 'SidecarSetUpgradable';
/** Its reasons. */
export const ALL_SIDECARSET_UPGRADABLE = 'AllSidecarsetUpgradable';
export const UPDATE_IMMUTABLE_FIELD = 'UpdateImmutableField';

/** The condition as it is patched (lastProbeTime null, as Go marshals a zero metav1.Time). */
export interface UpgradableCondition {
  readonly type: typeof SIDECARSET_UPGRADABLE_CONDITION;
  readonly status: 'True' | 'False';
  readonly lastProbeTime: null;
  readonly lastTransitionTime: string;
  readonly reason: string;
  readonly message: string;
}

/**
 * The message's key-value pairs. A message that is not a JSON object (someone wrote it by hand) makes
 * OpenKruise fail the reconcile on every round; it is started afresh here instead.
 */
function messageEntries(message: string | undefined): Record<string, unknown> {
  if (message === undefined || message === '') {
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(message);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Go's json.Marshal of a map: keys sorted. */
function goMapJson(entries: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.keys(entries)
        .sort()
        .map((key) => [key, entries[key]]),
    ),
  );
}

/** What one SidecarSet says of one pod. */
export interface UpgradableVerdict {
  /** The SidecarSet's name (its key in the message). */
  readonly name: string;
  readonly upgradable: boolean;
}

function goTime(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The pod's condition once the SidecarSet says whether it can upgrade it, or undefined when the pod
 * already carries exactly that (status, reason and message; the transition time moves only with the status).
 */
export function upgradableCondition(
  pod: DeepReadonly<Pod>,
  verdict: UpgradableVerdict,
  now: Date,
): UpgradableCondition | undefined {
  const existing = pod.status?.conditions?.find((condition) => condition.type === SIDECARSET_UPGRADABLE_CONDITION);
  const next = nextState({ ...messageEntries(existing?.message), [verdict.name]: verdict.upgradable });
  if (existing === undefined) {
    return { type: SIDECARSET_UPGRADABLE_CONDITION, ...next, lastProbeTime: null, lastTransitionTime: goTime(now) };
  }
  if (existing.status === next.status && existing.reason === next.reason && existing.message === next.message) {
    return undefined;
  }
  const lastTransitionTime =
    existing.status === next.status ? (existing.lastTransitionTime ?? goTime(now)) : goTime(now);
  return { type: SIDECARSET_UPGRADABLE_CONDITION, ...next, lastProbeTime: null, lastTransitionTime };
}

/** Status, reason and message from every SidecarSet's verdict. */
function nextState(entries: Record<string, unknown>): Pick<UpgradableCondition, 'status' | 'reason' | 'message'> {
  // Only a JSON false counts against the pod, as OpenKruise's `v == false` on interface{} values.
  const all = Object.values(entries).every((value) => value !== false);
  return {
    status: all ? 'True' : 'False',
    reason: all ? ALL_SIDECARSET_UPGRADABLE : UPDATE_IMMUTABLE_FIELD,
    message: goMapJson(entries),
  };
}

/** The strategic merge patch of the pod's status (conditions merge by type). */
export function upgradableConditionPatch(condition: UpgradableCondition): {
  status: { conditions: UpgradableCondition[] };
} {
  return { status: { conditions: [condition] } };
}
