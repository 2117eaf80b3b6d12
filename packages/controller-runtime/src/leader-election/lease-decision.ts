/** The fields of coordination.k8s.io/v1 LeaseSpec that leader election uses. */
export interface LeaseSpecLike {
  readonly holderIdentity?: string | undefined;
  readonly leaseDurationSeconds?: number | undefined;
  readonly acquireTime?: string | undefined;
  readonly renewTime?: string | undefined;
  readonly leaseTransitions?: number | undefined;
}

/** A Lease object. */
export interface LeaseLike {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly resourceVersion?: string;
    readonly labels?: Readonly<Record<string, string>>;
  };
  readonly spec?: LeaseSpecLike | undefined;
}

/** Leader-election timing; defaults of controller-runtime and OpenKruise are 15 s / 10 s / 2 s. */
export interface LeaseTiming {
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

export interface LeaseDecisionInput {
  /** The lease as read now; undefined when it does not exist. */
  readonly current: LeaseLike | undefined;
  readonly identity: string;
  /** This process's clock, monotonic (compared with observedAt only). */
  readonly now: number;
  /** When this process last saw the lease's record change (its own clock). */
  readonly observedAt: number;
  /** Wall-clock time to write into the Lease (acquireTime, renewTime); `now` when absent. */
  readonly wallNow?: number | undefined;
  readonly timing: LeaseTiming;
}

/** Either wait (someone else holds a live lease) or write this spec (create, take over or renew). */
export type LeaseDecision = { readonly kind: 'wait' } | { readonly kind: 'write'; readonly spec: LeaseSpecLike };

/**
 * Decides one acquire-or-renew step. Worked example with a 15 s lease: B holds the lease and its
 * record last changed at t=100 s on A's clock; at t=110 s A waits; at t=116 s the lease counts as
 * expired for A, which writes itself as holder with leaseTransitions + 1.
 */
export function decideLease(input: LeaseDecisionInput): LeaseDecision {
  const { current, identity, now, timing } = input;
  const spec = current?.spec ?? {};
  if (heldByAnother(input, spec)) {
    return { kind: 'wait' };
  }
  const renewing = spec.holderIdentity === identity;
  const nowTime = microTime(input.wallNow ?? now);
  return {
    kind: 'write',
    spec: {
      holderIdentity: identity,
      leaseDurationSeconds: Math.ceil(timing.leaseDurationMs / 1000),
      acquireTime: renewing ? (spec.acquireTime ?? nowTime) : nowTime,
      renewTime: nowTime,
      leaseTransitions: (spec.leaseTransitions ?? 0) + (renewing || current === undefined ? 0 : 1),
    },
  };
}

/** Someone else holds the lease and, by our own clock, renewed it within its duration. */
function heldByAnother(input: LeaseDecisionInput, spec: LeaseSpecLike): boolean {
  const holder = spec.holderIdentity ?? '';
  if (holder === '' || holder === input.identity) {
    return false;
  }
  const durationMs = (spec.leaseDurationSeconds ?? input.timing.leaseDurationMs / 1000) * 1000;
  return input.observedAt + durationMs > input.now;
}

/** metav1.MicroTime: RFC 3339 with exactly six fractional digits, which the apiserver requires. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
