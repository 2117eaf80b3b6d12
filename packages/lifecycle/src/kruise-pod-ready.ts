/**
 * markPodNotReady through the `KruisePodReady` readiness gate (OpenKruise's pkg/util/podreadiness):
 * lifecycle hooks add a `{userAgent, key}` message to the condition and set it False, so the pod
 * leaves Service endpoints while it waits; removing the last message sets it True again. The
 * condition's message is the JSON list of reasons, so several actors can hold a pod not ready.
 */
import type { Pod } from '@kruise-ts/api';
import { KRUISE_POD_READY, LifecycleState } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { controllerReadyFalse, POD_READY_CONDITION } from '@kruise-ts/workload';

import { lifecycleTimestamp } from './state-patch.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** A pod status condition. */
export type PodCondition = NonNullable<NonNullable<Pod['status']>['conditions']>[number];

/** The keys the lifecycle writes into KruisePodReady. */
export type KruisePodReadyKey = 'preDeleteHook' | 'preUpdateHook';

/** A change of the KruisePodReady condition. */
export interface KruisePodReadyChange {
  readonly key: KruisePodReadyKey;
  readonly action: 'add' | 'remove';
}

/** Options of {@link kruisePodReadyConditionUpdate}. */
export interface KruisePodReadyUpdateOptions extends KruisePodReadyChange {
  /** Current time in ms since the epoch. */
  readonly now: number;
}

/** The user agent of the lifecycle's messages. */
export const LIFECYCLE_USER_AGENT = 'Lifecycle';

interface ReadinessMessage {
  readonly userAgent: string;
  readonly key: string;
}

/**
 * The KruisePodReady change a lifecycle state asks for when markPodNotReady applies:
 * PreparingDelete adds preDeleteHook, PreparingUpdate adds preUpdateHook, Updated removes
 * preUpdateHook; other states change nothing.
 */
export function kruisePodReadyChangeFor(state: LifecycleState): KruisePodReadyChange | undefined {
  switch (state) {
    case LifecycleState.PreparingDelete:
      return { key: 'preDeleteHook', action: 'add' };
    case LifecycleState.PreparingUpdate:
      return { key: 'preUpdateHook', action: 'add' };
    case LifecycleState.Updated:
      return { key: 'preUpdateHook', action: 'remove' };
    case LifecycleState.PreparingNormal:
    case LifecycleState.Normal:
    case LifecycleState.Updating:
      return undefined;
  }
}

/** The KruisePodReady condition a pod starts with: True, as OpenKruise's podreadiness controller sets it. */
export function initialKruisePodReadyCondition(now: number): PodCondition {
  return { type: KRUISE_POD_READY, status: 'True', lastTransitionTime: lifecycleTimestamp(now) };
}

/** Whether the pod carries the KruisePodReady readiness gate. */
export function hasKruisePodReadyGate(pod: ReadonlyPod): boolean {
  return (pod.spec?.readinessGates ?? []).some((gate) => gate.conditionType === KRUISE_POD_READY);
}

function toMessage(value: unknown): ReadinessMessage {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const userAgent = record['userAgent'];
  const key = record['key'];
  return { userAgent: typeof userAgent === 'string' ? userAgent : '', key: typeof key === 'string' ? key : '' };
}

/** The message list of a condition; unparsable text reads as an empty list, as upstream. */
function parseMessages(text: string | undefined): ReadinessMessage[] {
  if (text === undefined || text === '') {
    return [];
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(toMessage) : [];
  } catch {
    return [];
  }
}

function compareMessages(a: ReadinessMessage, b: ReadinessMessage): number {
  if (a.userAgent !== b.userAgent) {
    return a.userAgent < b.userAgent ? -1 : 1;
  }
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The JSON of the messages sorted by userAgent then key (`[{"userAgent":"Lifecycle","key":"preDeleteHook"}]`). */
function dumpMessages(messages: readonly ReadinessMessage[]): string {
  return JSON.stringify([...messages].sort(compareMessages).map(({ userAgent, key }) => ({ userAgent, key })));
}

function sameMessage(a: ReadinessMessage, b: ReadinessMessage): boolean {
  return a.userAgent === b.userAgent && a.key === b.key;
}

/**
 * Takes the pod out of service right away instead of waiting for the kubelet, as OpenKruise does when
 * adding a key (see controllerReadyFalse). Ready True is left to the kubelet.
 */
function withRecomputedReady(pod: ReadonlyPod, conditions: PodCondition[], now: number): PodCondition[] {
  const ready = controllerReadyFalse({
    readinessGates: pod.spec?.readinessGates ?? [],
    conditions,
    lastTransitionTime: lifecycleTimestamp(now),
  });
  return ready === undefined
    ? conditions
    : conditions.map((condition) => (condition.type === POD_READY_CONDITION ? ready : condition));
}

function addKey(
  pod: ReadonlyPod,
  conditions: PodCondition[],
  options: KruisePodReadyUpdateOptions,
): PodCondition[] | undefined {
  const message = { userAgent: LIFECYCLE_USER_AGENT, key: options.key };
  const index = conditions.findIndex((c) => c.type === KRUISE_POD_READY);
  const existing = conditions[index];
  const messages = parseMessages(existing?.message);
  if (messages.some((m) => sameMessage(m, message))) {
    return undefined;
  }
  const condition: PodCondition = {
    ...existing,
    type: KRUISE_POD_READY,
    status: 'False',
    message: dumpMessages([...messages, message]),
    lastTransitionTime: lifecycleTimestamp(options.now),
  };
  const next = index < 0 ? [...conditions, condition] : conditions.map((c, i) => (i === index ? condition : c));
  return withRecomputedReady(pod, next, options.now);
}

function removeKey(conditions: PodCondition[], options: KruisePodReadyUpdateOptions): PodCondition[] | undefined {
  const message = { userAgent: LIFECYCLE_USER_AGENT, key: options.key };
  const index = conditions.findIndex((c) => c.type === KRUISE_POD_READY);
  const existing = conditions[index];
  const messages = parseMessages(existing?.message);
  const remaining = messages.filter((m) => !sameMessage(m, message));
  if (existing === undefined || remaining.length === messages.length) {
    return undefined;
  }
  const condition: PodCondition = {
    ...existing,
    ...(remaining.length === 0 ? { status: 'True' } : {}),
    message: dumpMessages(remaining),
    lastTransitionTime: lifecycleTimestamp(options.now),
  };
  return conditions.map((c, i) => (i === index ? condition : c));
}

/**
 * The pod's conditions after adding or removing a lifecycle key in KruisePodReady, or undefined when
 * nothing changes (no readiness gate, key already there / not there). Add: the key joins the
 * message, status False, and Ready is recomputed from the gates. Remove: the key leaves the message;
 * status True when no message remains. New objects are returned; the pod is not modified.
 */
export function kruisePodReadyConditionUpdate(
  pod: ReadonlyPod,
  options: KruisePodReadyUpdateOptions,
): PodCondition[] | undefined {
  if (!hasKruisePodReadyGate(pod)) {
    return undefined;
  }
  const conditions = structuredClone(pod.status?.conditions ?? []) as PodCondition[];
  return options.action === 'add' ? addKey(pod, conditions, options) : removeKey(conditions, options);
}
