/**
 * What one reconcile does to the set's pod count (OpenKruise's replica and condemned loops, A.6.6),
 * decided without I/O. OrderedReady (monotonic) moves one pod at a time: it creates the lowest
 * missing ordinal only after every lower pod is available, and deletes the highest condemned pod
 * only once the others are; Parallel creates every missing pod at once within
 * `scaleStrategy.maxUnavailable` and deletes every condemned pod at once.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isBeingDeleted } from '@kruise-ts/workload';

import { availableInMs, isAvailable, isFinished, isHealthy } from '../pod-health.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** What the planner reads. */
export interface ScalePlanInput {
  /** OrderedReady: one pod at a time, in ordinal order. */
  readonly monotonic: boolean;
  /** `scaleStrategy.maxUnavailable` resolved; undefined when unset (no budget). */
  readonly budget: number | undefined;
  readonly minReadySeconds: number;
  readonly now: number;
  /** The live ordinals, ascending, with their pod when it exists. */
  readonly replicas: readonly { readonly ordinal: number; readonly pod: ReadonlyPod | undefined }[];
  /** Pods at ordinals out of range or reserved, any order. */
  readonly condemned: readonly { readonly ordinal: number; readonly pod: ReadonlyPod }[];
  /** Ordinals whose claims still belong to an older pod of the same name (wait for its collection). */
  readonly staleClaims: ReadonlySet<number>;
}

/** The decision. */
export interface ScalePlan {
  /** Ordinals to create, ascending. */
  readonly create: readonly number[];
  /** Finished (Failed/Succeeded) pods to delete and create again. */
  readonly deleteFinished: readonly ReadonlyPod[];
  /** Condemned pods to delete (through the preDelete hook), highest ordinal first. */
  readonly deleteCondemned: readonly ReadonlyPod[];
  /** Existing in-range pods to check (identity, storage, claims); those before a stop only. */
  readonly checked: readonly { readonly ordinal: number; readonly pod: ReadonlyPod }[];
  /** Nothing else may happen this round (no rolling update): a pod must settle first. */
  readonly stop: boolean;
  /** Come back then (a pod turns available by minReadySeconds alone). */
  readonly requeueMs?: number;
  /** Why it stopped, for logs. */
  readonly waitingFor?: string;
}

class Budget {
  #remaining: number | undefined;

  constructor(remaining: number | undefined) {
    this.#remaining = remaining;
  }

  get limited(): boolean {
    return this.#remaining !== undefined;
  }

  /** Takes one; true when the budget is used up (upstream's `decreaseAndCheckMaxUnavailable`). */
  exhaustedAfterOne(): boolean {
    if (this.#remaining === undefined) {
      return false;
    }
    this.#remaining--;
    return this.#remaining <= 0;
  }
}

interface Draft {
  create: number[];
  deleteFinished: ReadonlyPod[];
  checked: { ordinal: number; pod: ReadonlyPod }[];
  requeueMs?: number;
}

type Step = 'next' | 'break' | { readonly stop: string };

/** What one replica step reads and writes. */
interface StepInput {
  readonly input: ScalePlanInput;
  readonly draft: Draft;
  readonly budget: Budget;
}

/** After an action that makes a pod unavailable: OrderedReady stops, Parallel spends its budget. */
function afterOne({ input, budget }: StepInput, what: string): Step {
  if (input.monotonic) {
    return { stop: what };
  }
  return budget.exhaustedAfterOne() ? 'break' : 'next';
}

function missingStep(step: StepInput, ordinal: number): Step {
  if (step.input.staleClaims.has(ordinal)) {
    return { stop: `the claims of ordinal ${String(ordinal)} still belong to a deleted pod` };
  }
  step.draft.create.push(ordinal);
  return afterOne(step, `the new pod of ordinal ${String(ordinal)}`);
}

function pushWait(draft: Draft, wait: number | undefined): void {
  if (wait !== undefined && wait > 0) {
    draft.requeueMs = Math.min(draft.requeueMs ?? wait, wait);
  }
}

/** A pod that exists and is not finished or terminating: OrderedReady (or a budget) waits for it to be available. */
function existingStep(step: StepInput, slot: { readonly ordinal: number; readonly pod: ReadonlyPod }): Step {
  const { input, draft, budget } = step;
  const options = { minReadySeconds: input.minReadySeconds, now: input.now };
  draft.checked.push(slot);
  if (!(input.monotonic || budget.limited) || isAvailable(slot.pod, options)) {
    return 'next';
  }
  pushWait(draft, availableInMs(slot.pod, options));
  if (input.monotonic) {
    return { stop: `pod ${slot.pod.metadata?.name ?? ''} to be running and available` };
  }
  return budget.exhaustedAfterOne() ? 'break' : 'next';
}

function replicaStep(step: StepInput, slot: { readonly ordinal: number; readonly pod: ReadonlyPod | undefined }): Step {
  const { pod, ordinal } = slot;
  if (pod === undefined) {
    return missingStep(step, ordinal);
  }
  const name = pod.metadata?.name ?? '';
  if (isBeingDeleted(pod)) {
    return afterOne(step, `pod ${name} to terminate`);
  }
  if (isFinished(pod)) {
    step.draft.deleteFinished.push(pod);
    return afterOne(step, `finished pod ${name} to be replaced`);
  }
  return existingStep(step, { ordinal, pod });
}

/** The lowest-ordinal unhealthy pod among replicas and condemned: the one OrderedReady may delete while unhealthy. */
function firstUnhealthy(input: ScalePlanInput): ReadonlyPod | undefined {
  const all = [
    ...input.replicas.flatMap((slot) => (slot.pod === undefined ? [] : [{ ordinal: slot.ordinal, pod: slot.pod }])),
    ...input.condemned,
  ];
  return all.filter((entry) => !isHealthy(entry.pod)).sort((a, b) => a.ordinal - b.ordinal)[0]?.pod;
}

type CondemnedPlan = { readonly delete: ReadonlyPod[]; readonly stop?: string; readonly requeueMs?: number };

/** Why OrderedReady may not delete this condemned pod yet, or undefined when it may. */
function condemnedBlocker(
  input: ScalePlanInput,
  pod: ReadonlyPod,
  first: ReadonlyPod | undefined,
): Omit<CondemnedPlan, 'delete'> | undefined {
  const name = pod.metadata?.name ?? '';
  if (isBeingDeleted(pod)) {
    return { stop: `pod ${name} to terminate before scaling down further` };
  }
  const options = { minReadySeconds: input.minReadySeconds, now: input.now };
  if (isAvailable(pod, options) || pod === first) {
    return undefined;
  }
  const wait = availableInMs(pod, options);
  return {
    stop: `pod ${name} to be available before scaling down`,
    ...(wait !== undefined && wait > 0 ? { requeueMs: wait } : {}),
  };
}

function condemnedPlan(input: ScalePlanInput): CondemnedPlan {
  const ordered = [...input.condemned].sort((a, b) => b.ordinal - a.ordinal).map((entry) => entry.pod);
  if (!input.monotonic) {
    // Parallel: every condemned pod at once; terminating ones are on their way already.
    return { delete: ordered.filter((pod) => !isBeingDeleted(pod)) };
  }
  const [highest] = ordered;
  if (highest === undefined) {
    return { delete: [] };
  }
  const blocker = condemnedBlocker(input, highest, firstUnhealthy(input));
  return blocker === undefined
    ? { delete: [highest], stop: `the deletion of pod ${highest.metadata?.name ?? ''}` }
    : { delete: [], ...blocker };
}

/** The scale decision of one reconcile. */
export function planScale(input: ScalePlanInput): ScalePlan {
  const draft: Draft = { create: [], deleteFinished: [], checked: [] };
  const budget = new Budget(input.budget);
  for (const slot of input.replicas) {
    const step = replicaStep({ input, draft, budget }, slot);
    if (step === 'break') {
      break;
    }
    if (step !== 'next') {
      return { ...draft, deleteCondemned: [], stop: true, waitingFor: step.stop };
    }
  }
  const condemned = condemnedPlan(input);
  const requeueMs = [draft.requeueMs, condemned.requeueMs]
    .filter((ms): ms is number => ms !== undefined)
    .sort((a, b) => a - b)[0];
  return {
    ...draft,
    deleteCondemned: condemned.delete,
    stop: condemned.stop !== undefined,
    ...(requeueMs === undefined ? {} : { requeueMs }),
    ...(condemned.stop === undefined ? {} : { waitingFor: condemned.stop }),
  };
}
