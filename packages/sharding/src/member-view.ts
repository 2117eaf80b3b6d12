/**
 * The ring's Leases as one member sees them: which members renewed recently on this member's own
 * monotonic clock (client-go's rule: a record that stopped changing for its duration is expired,
 * whatever the timestamps written in it say), and who holds each bucket. A member Lease is written
 * only by its member's renewals, so its resourceVersion is the renewal marker: unlike the wall-clock
 * `renewTime` in it, two renewals never share one.
 */
import type { LeaseLike } from '@kruise-ts/controller-runtime';

import { bucketOfLeaseName, isMemberLeaseName } from './shard-leases.ts';
import { isNewerVersion } from './shard-round.ts';
import type { ObservedBucket, ObservedMember } from './shard-round.ts';

/** A bucket Lease with the object a conditional write needs. */
export interface SeenBucket extends ObservedBucket {
  readonly lease: LeaseLike;
}

export interface RingSnapshot {
  readonly members: ObservedMember[];
  readonly buckets: Map<number, SeenBucket>;
}

interface SeenRenewal {
  readonly identity: string;
  readonly resourceVersion: string;
  /** When this member first saw this renewal, on its monotonic clock. */
  readonly at: number;
}

export class MemberView {
  readonly #ring: string;
  readonly #defaultDurationMs: number;
  /** Per member Lease name: the newest renewal seen (from the cache or a live read), and when. */
  readonly #seen = new Map<string, SeenRenewal>();

  constructor(ring: string, defaultDurationMs: number) {
    this.#ring = ring;
    this.#defaultDurationMs = defaultDurationMs;
  }

  /** Reads the cached Leases at `now`; members seen for the first time count from now. */
  observe(leases: Iterable<LeaseLike>, now: number): RingSnapshot {
    const members: ObservedMember[] = [];
    const buckets = new Map<number, SeenBucket>();
    for (const lease of leases) {
      this.#read(lease, now, { members, buckets });
    }
    this.#forgetAllBut(new Set(members.map((member) => member.leaseName)));
    return { members, buckets };
  }

  /**
   * Before a takeover: whether the member Lease `leaseName`, as the API server has it now (`live`,
   * undefined when it is gone), still shows the renewal this view saw at least its duration ago. A
   * newer renewal is recorded as seen now, so the member counts as live again from this read on: a
   * watch that stalled without breaking makes a member look expired here, and only here.
   */
  confirmExpired(leaseName: string, live: LeaseLike | undefined, now: number): boolean {
    const identity = live?.spec?.holderIdentity ?? '';
    if (live === undefined || identity === '') {
      return true;
    }
    const seen = this.#renewal(leaseName, { identity, resourceVersion: live.metadata?.resourceVersion ?? '', at: now });
    return seen.at !== now && now - seen.at >= durationOf(live.spec?.leaseDurationSeconds, this.#defaultDurationMs);
  }

  #read(lease: LeaseLike, now: number, into: RingSnapshot): void {
    const { name = '', resourceVersion = '' } = lease.metadata ?? {};
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const bucket = bucketOfLeaseName(this.#ring, name);
    if (bucket !== undefined) {
      into.buckets.set(bucket, { holder, resourceVersion, lease });
    } else if (holder !== '' && isMemberLeaseName(this.#ring, name)) {
      const seen = this.#renewal(name, { identity: holder, resourceVersion, at: now });
      into.members.push({
        leaseName: name,
        identity: seen.identity,
        observedAt: seen.at,
        leaseDurationMs: durationOf(spec.leaseDurationSeconds, this.#defaultDurationMs),
      });
    }
  }

  /** The renewal to count from: the cached one if it is newer than what was seen, else what was seen (a live read may be ahead of the cache). */
  #renewal(name: string, cached: SeenRenewal): SeenRenewal {
    const seen = this.#seen.get(name);
    if (seen !== undefined && !isNewerVersion(cached.resourceVersion, seen.resourceVersion)) {
      return seen;
    }
    this.#seen.set(name, cached);
    return cached;
  }

  #forgetAllBut(present: ReadonlySet<string>): void {
    for (const name of [...this.#seen.keys()]) {
      if (!present.has(name)) {
        this.#seen.delete(name);
      }
    }
  }
}

function durationOf(seconds: number | undefined, defaultMs: number): number {
  return seconds === undefined ? defaultMs : seconds * 1000;
}
