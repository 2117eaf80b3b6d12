/**
 * Name-based scale expectations, as OpenKruise's `pkg/util/expectations/scale_expectations.go`, with
 * one difference: an owner can never stay blocked forever.
 *
 * ### Why
 * The informer cache lags behind our own creates and deletes. Without expectations the next
 * reconcile would still see too few (or too many) pods and create (or delete) them a second time.
 * So a controller records the names it is about to create/delete (`expect`), the informer handlers
 * (or a failed API call) check them off (`observe`), and the reconcile skips its scale step while
 * `satisfied()` says no.
 *
 * ### Why the timeout drops instead of only reporting
 * If an event is lost (a pod created and deleted again between two watches, an expectation recorded
 * for a write that never happened), the expectation never clears. OpenKruise then logs
 * "Expectation unsatisfied overtime" and stays blocked: 68 hours in kruise#1765; the fix (kruise#1829)
 * sits behind the alpha gate `ForceDeleteTimeoutExpectationGate`, off by default. Here the stale names
 * are always dropped after the timeout and reported through `onTimeout`, and the reconcile proceeds
 * from what the cache shows, which is level-based and safe.
 */
import { realClock } from '@kruise-ts/controller-runtime';
import type { Clock } from '@kruise-ts/controller-runtime';

import { backlogOf } from './expectation-metrics.ts';
import type { ExpectationBacklog, ExpectationMetrics } from './expectation-metrics.ts';
import { resolveExpectationTimeout } from './expectation-timeout.ts';
import type { ExpectationsOptions } from './expectation-timeout.ts';

/** The two scale actions an expectation can wait for. */
export type ScaleAction = 'create' | 'delete';

/** What `onTimeout` receives: the names of one action that were dropped for one owner. */
export interface ScaleExpectationTimeout {
  /** The owner's key, `namespace/name`. */
  readonly ownerKey: string;
  readonly action: ScaleAction;
  /** The names still unobserved when the expectation was dropped, sorted. */
  readonly names: readonly string[];
  /** How long the owner had been unsatisfied, in ms. */
  readonly ageMs: number;
}

/** Names per action, sorted. */
export interface ScaleNames {
  readonly create: readonly string[];
  readonly delete: readonly string[];
}

/** The answer of `ScaleExpectations.satisfied`. */
export interface ScaleSatisfaction {
  /** True when nothing is pending (possibly because it was just dropped on timeout). */
  readonly satisfied: boolean;
  /** Names still awaited; empty when satisfied. */
  readonly pending: ScaleNames;
  /** How long the owner has been unsatisfied, counted from the first check that found it so (0 when satisfied without timeout). */
  readonly unsatisfiedForMs: number;
  /** Time left before the pending names are dropped; a reconcile that skips can requeue after it. 0 when satisfied. */
  readonly remainingMs: number;
  /** True on the one call that dropped the pending names because the timeout elapsed. */
  readonly timedOut: boolean;
  /** The names dropped by this call (non-empty only when `timedOut`). */
  readonly dropped: ScaleNames;
}

interface OwnerExpectations {
  readonly create: Set<string>;
  readonly delete: Set<string>;
  /** When the first of the names now pending was expected: how long the owner has waited, for the metrics. */
  readonly since: number;
  /** Set by the first `satisfied()` call that finds the owner unsatisfied, as OpenKruise does. */
  firstUnsatisfiedAt: number | undefined;
}

const NO_NAMES: ScaleNames = { create: [], delete: [] };

const SATISFIED: ScaleSatisfaction = {
  satisfied: true,
  pending: NO_NAMES,
  unsatisfiedForMs: 0,
  remainingMs: 0,
  timedOut: false,
  dropped: NO_NAMES,
};

/**
 * Per-owner sets of pod (or PVC) names expected to be created or deleted. One instance per
 * controller, passed in by its constructor; keys are owner `namespace/name` strings.
 */
export class ScaleExpectations {
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #onTimeout: ((event: ScaleExpectationTimeout) => void) | undefined;
  readonly #metrics: ExpectationMetrics | undefined;
  readonly #owners = new Map<string, OwnerExpectations>();

  constructor(options: ExpectationsOptions<ScaleExpectationTimeout> = {}) {
    this.#timeoutMs = resolveExpectationTimeout(options.timeoutMs);
    this.#clock = options.clock ?? realClock;
    this.#onTimeout = options.onTimeout;
    this.#metrics = options.metrics;
    this.#metrics?.bindBacklog(() => this.backlog());
  }

  /** Records that `name` is about to be created/deleted for `ownerKey`; call it before the API call. */
  expect(ownerKey: string, action: ScaleAction, name: string): void {
    let owner = this.#owners.get(ownerKey);
    if (owner === undefined) {
      owner = { create: new Set(), delete: new Set(), since: this.#clock.now(), firstUnsatisfiedAt: undefined };
      this.#owners.set(ownerKey, owner);
    }
    owner[action].add(name);
  }

  /**
   * Checks `name` off: call it from the informer's add/delete handler, or right after the API call
   * failed (the object will never show up). Unknown owners and names are ignored.
   */
  observe(ownerKey: string, action: ScaleAction, name: string): void {
    const owner = this.#owners.get(ownerKey);
    if (owner === undefined) {
      return;
    }
    owner[action].delete(name);
    if (owner.create.size === 0 && owner.delete.size === 0) {
      this.#owners.delete(ownerKey);
      this.#settled(owner);
    }
  }

  /**
   * Reports whether `ownerKey` may scale. When it has been unsatisfied for the timeout or longer, the
   * pending names are dropped, `onTimeout` is called once per action that had names, and the answer
   * is satisfied with `timedOut: true`.
   */
  satisfied(ownerKey: string): ScaleSatisfaction {
    const owner = this.#owners.get(ownerKey);
    if (owner === undefined || (owner.create.size === 0 && owner.delete.size === 0)) {
      this.#owners.delete(ownerKey);
      return SATISFIED;
    }
    const now = this.#clock.now();
    owner.firstUnsatisfiedAt ??= now;
    const ageMs = now - owner.firstUnsatisfiedAt;
    const names: ScaleNames = { create: [...owner.create].sort(), delete: [...owner.delete].sort() };
    if (ageMs < this.#timeoutMs) {
      return {
        satisfied: false,
        pending: names,
        unsatisfiedForMs: ageMs,
        remainingMs: this.#timeoutMs - ageMs,
        timedOut: false,
        dropped: NO_NAMES,
      };
    }
    // Drop before reporting, so a throwing callback cannot leave the owner blocked.
    this.#owners.delete(ownerKey);
    this.#settled(owner);
    this.#reportTimeout(ownerKey, names, ageMs);
    return {
      satisfied: true,
      pending: NO_NAMES,
      unsatisfiedForMs: ageMs,
      remainingMs: 0,
      timedOut: true,
      dropped: names,
    };
  }

  /** Forgets everything about `ownerKey`; call it when the owner is deleted. */
  delete(ownerKey: string): void {
    this.#owners.delete(ownerKey);
  }

  /**
   * Forgets every owner `matches` selects: a sharded replica that takes a bucket over starts its
   * workloads from the cache alone, not from what it expected when it last held them.
   */
  deleteWhere(matches: (ownerKey: string) => boolean): void {
    for (const ownerKey of [...this.#owners.keys()]) {
      if (matches(ownerKey)) {
        this.#owners.delete(ownerKey);
      }
    }
  }

  /** How many owners wait on a creation or deletion, and how long the oldest has waited. */
  backlog(): ExpectationBacklog {
    return backlogOf(this.#owners.values(), this.#clock.now());
  }

  #settled(owner: OwnerExpectations): void {
    this.#metrics?.settled((this.#clock.now() - owner.since) / 1000);
  }

  #reportTimeout(ownerKey: string, names: ScaleNames, ageMs: number): void {
    for (const action of ['create', 'delete'] as const) {
      if (names[action].length > 0) {
        this.#onTimeout?.({ ownerKey, action, names: names[action], ageMs });
      }
    }
  }
}
