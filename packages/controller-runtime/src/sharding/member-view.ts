/**
 * The ring's Leases as one member sees them: which members renewed recently on this member's own
 * clock (client-go's rule: a record that stopped changing for its duration is expired, whatever the
 * timestamps written in it say), and who holds each bucket.
 */
import type { LeaseLike, LeaseSpecLike } from '../leader-election/lease-decision.ts';
import { bucketOfLeaseName, isMemberLeaseName } from './shard-leases.ts';
import type { ObservedBucket, ObservedMember } from './shard-round.ts';

/** A bucket Lease with the object a conditional write needs. */
export interface SeenBucket extends ObservedBucket {
  readonly lease: LeaseLike;
}

export interface RingSnapshot {
  readonly members: ObservedMember[];
  readonly buckets: Map<number, SeenBucket>;
}

export class MemberView {
  readonly #ring: string;
  readonly #defaultDurationMs: number;
  /** Per member Lease name: the renewal last seen, and when this member first saw it. */
  readonly #seen = new Map<string, { readonly record: string; readonly at: number }>();

  constructor(ring: string, defaultDurationMs: number) {
    this.#ring = ring;
    this.#defaultDurationMs = defaultDurationMs;
  }

  /** Reads the Leases at `now`; members seen for the first time count from now. */
  observe(leases: Iterable<LeaseLike>, now: number): RingSnapshot {
    const members: ObservedMember[] = [];
    const buckets = new Map<number, SeenBucket>();
    for (const lease of leases) {
      this.#read(lease, now, { members, buckets });
    }
    this.#forgetAllBut(new Set(members.map((member) => member.leaseName)));
    return { members, buckets };
  }

  #read(lease: LeaseLike, now: number, into: RingSnapshot): void {
    const { name = '', resourceVersion = '' } = lease.metadata ?? {};
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const bucket = bucketOfLeaseName(this.#ring, name);
    if (bucket !== undefined) {
      into.buckets.set(bucket, { holder, resourceVersion, lease });
    } else if (holder !== '' && isMemberLeaseName(this.#ring, name)) {
      into.members.push(this.#member(name, spec, now));
    }
  }

  #forgetAllBut(present: ReadonlySet<string>): void {
    for (const name of [...this.#seen.keys()]) {
      if (!present.has(name)) {
        this.#seen.delete(name);
      }
    }
  }

  #member(name: string, spec: LeaseSpecLike, now: number): ObservedMember {
    const identity = spec.holderIdentity ?? '';
    const record = `${identity}|${spec.renewTime ?? ''}`;
    const seen = this.#seen.get(name);
    let at = now;
    if (seen?.record === record) {
      at = seen.at;
    } else {
      this.#seen.set(name, { record, at });
    }
    const durationMs = spec.leaseDurationSeconds === undefined ? this.#defaultDurationMs : spec.leaseDurationSeconds * 1000;
    return { leaseName: name, identity, observedAt: at, leaseDurationMs: durationMs };
  }
}
