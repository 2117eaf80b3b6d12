/**
 * ResourceVersion expectations, as OpenKruise's `pkg/util/expectations/resource_version_expectation.go`,
 * with a timeout that drops a stuck entry instead of blocking forever.
 *
 * ### Why
 * After a controller patches a pod (or a revision), the informer still holds the old copy for a
 * moment. Acting on it could repeat the same mutation or miscount. So the controller records the
 * resourceVersion its write returned (`expect`), and treats the cached object as usable only once the
 * cache shows that version or a later one (`isSatisfied`).
 */
import { realClock } from '@kruise-ts/controller-runtime';
import type { Clock } from '@kruise-ts/controller-runtime';

import { backlogOf } from './expectation-metrics.ts';
import type { ExpectationBacklog, ExpectationMetrics } from './expectation-metrics.ts';
import { resolveExpectationTimeout } from './expectation-timeout.ts';
import type { ExpectationsOptions } from './expectation-timeout.ts';

/** The part of a Kubernetes object these expectations read; any object with `metadata` fits. */
export interface VersionedObject {
  readonly metadata?:
    | {
        readonly uid?: string | undefined;
        readonly resourceVersion?: string | undefined;
        readonly namespace?: string | undefined;
        readonly name?: string | undefined;
      }
    | undefined;
}

/** What `onTimeout` receives when an object's expectation is dropped. */
export interface ResourceVersionExpectationTimeout {
  /** `namespace/name` when the expected object carried them (`name` for cluster-scoped), else the UID. */
  readonly key: string;
  readonly uid: string;
  readonly expectedResourceVersion: string;
  /** The version the cache showed on the check that dropped the expectation. */
  readonly observedResourceVersion: string | undefined;
  /** How long the object had been unsatisfied, in ms. */
  readonly ageMs: number;
}

/** The detailed answer of `ResourceVersionExpectations.check`. */
export interface ResourceVersionSatisfaction {
  readonly satisfied: boolean;
  /** How long the object has been unsatisfied, counted from the first check that found it so. */
  readonly unsatisfiedForMs: number;
  /** Time left before the expectation is dropped; 0 when satisfied. */
  readonly remainingMs: number;
  /** True on the one call that dropped the expectation because the timeout elapsed. */
  readonly timedOut: boolean;
}

interface ExpectedVersion {
  readonly key: string;
  version: string;
  /** When the first write still unobserved was recorded: how long the object has waited, for the metrics. */
  readonly since: number;
  firstUnsatisfiedAt: number | undefined;
}

const SATISFIED: ResourceVersionSatisfaction = {
  satisfied: true,
  unsatisfiedForMs: 0,
  remainingMs: 0,
  timedOut: false,
};

const NUMERIC = /^[0-9]+$/;

/**
 * True when `observed` is the same as or later than `expected`. Kubernetes calls resourceVersions
 * opaque, but every apiserver backed by etcd issues increasing integers, and OpenKruise compares them
 * numerically; BigInt keeps versions beyond 2^53 exact. A non-numeric version can only be compared
 * for equality (OpenKruise instead treats a non-numeric expected version as always satisfied).
 */
export function isResourceVersionAtLeast(observed: string, expected: string): boolean {
  if (NUMERIC.test(observed) && NUMERIC.test(expected)) {
    return BigInt(observed) >= BigInt(expected);
  }
  return observed === expected;
}

/**
 * Per-object (by UID) expected resourceVersions. One instance per controller, passed in by its
 * constructor.
 */
export class ResourceVersionExpectations {
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #onTimeout: ((event: ResourceVersionExpectationTimeout) => void) | undefined;
  readonly #metrics: ExpectationMetrics | undefined;
  readonly #expected = new Map<string, ExpectedVersion>();

  constructor(options: ExpectationsOptions<ResourceVersionExpectationTimeout> = {}) {
    this.#timeoutMs = resolveExpectationTimeout(options.timeoutMs);
    this.#clock = options.clock ?? realClock;
    this.#onTimeout = options.onTimeout;
    this.#metrics = options.metrics;
    this.#metrics?.bindBacklog(() => this.backlog());
  }

  /**
   * Records the version a write returned; call it with the object the API server sent back. A lower
   * numeric version than the one already expected is ignored. Objects without UID or version are ignored.
   */
  expect(obj: VersionedObject): void {
    const uid = obj.metadata?.uid;
    const version = obj.metadata?.resourceVersion;
    if (uid === undefined || uid === '' || version === undefined || version === '') {
      return;
    }
    const existing = this.#expected.get(uid);
    if (existing === undefined) {
      this.#expected.set(uid, {
        key: objectKey(obj, uid),
        version,
        since: this.#clock.now(),
        firstUnsatisfiedAt: undefined,
      });
    } else if (!isOlderNumeric(version, existing.version)) {
      existing.version = version;
    }
  }

  /**
   * The keys (`namespace/name`, or the UID for nameless objects) of the objects with a pending
   * expectation: a caller can check those few in its cache instead of every object it owns.
   */
  pendingKeys(): string[] {
    return [...this.#expected.values()].map((entry) => entry.key);
  }

  /** Clears the expectation when `obj` (from an informer event) is at or past the expected version. */
  observe(obj: VersionedObject): void {
    const uid = obj.metadata?.uid ?? '';
    const entry = this.#expected.get(uid);
    const version = obj.metadata?.resourceVersion;
    if (entry !== undefined && version !== undefined && isResourceVersionAtLeast(version, entry.version)) {
      this.#settle(uid, entry);
    }
  }

  /** True when the cached `obj` can be trusted: nothing expected, the expected version reached, or the timeout elapsed. */
  isSatisfied(obj: VersionedObject): boolean {
    return this.check(obj).satisfied;
  }

  /**
   * Like `isSatisfied`, with the timing details. When the object has been unsatisfied for the timeout
   * or longer, the expectation is dropped, `onTimeout` is called, and the answer is satisfied with
   * `timedOut: true`.
   */
  check(obj: VersionedObject): ResourceVersionSatisfaction {
    const uid = obj.metadata?.uid ?? '';
    const entry = this.#expected.get(uid);
    if (entry === undefined) {
      return SATISFIED;
    }
    const observed = obj.metadata?.resourceVersion;
    if (observed !== undefined && isResourceVersionAtLeast(observed, entry.version)) {
      this.#settle(uid, entry);
      return SATISFIED;
    }
    const now = this.#clock.now();
    entry.firstUnsatisfiedAt ??= now;
    const ageMs = now - entry.firstUnsatisfiedAt;
    if (ageMs < this.#timeoutMs) {
      return { satisfied: false, unsatisfiedForMs: ageMs, remainingMs: this.#timeoutMs - ageMs, timedOut: false };
    }
    this.#settle(uid, entry);
    this.#onTimeout?.({
      key: entry.key,
      uid,
      expectedResourceVersion: entry.version,
      observedResourceVersion: observed,
      ageMs,
    });
    return { satisfied: true, unsatisfiedForMs: ageMs, remainingMs: 0, timedOut: true };
  }

  /** Forgets the expectation of an object (or of a UID); call it when the object is deleted. */
  delete(objOrUid: VersionedObject | string): void {
    const uid = typeof objOrUid === 'string' ? objOrUid : objOrUid.metadata?.uid;
    if (uid !== undefined) {
      this.#expected.delete(uid);
    }
  }

  /** How many objects wait for the cache to show our write, and how long the oldest has waited. */
  backlog(): ExpectationBacklog {
    return backlogOf(this.#expected.values(), this.#clock.now());
  }

  #settle(uid: string, entry: ExpectedVersion): void {
    this.#expected.delete(uid);
    this.#metrics?.settled((this.#clock.now() - entry.since) / 1000);
  }
}

function isOlderNumeric(candidate: string, current: string): boolean {
  return NUMERIC.test(candidate) && NUMERIC.test(current) && BigInt(candidate) < BigInt(current);
}

function objectKey(obj: VersionedObject, uid: string): string {
  const name = obj.metadata?.name;
  if (name === undefined || name === '') {
    return uid;
  }
  const namespace = obj.metadata?.namespace;
  return namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
}
