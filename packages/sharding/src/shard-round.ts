/**
 * One round of a member's coordination (docs/sharding.md, "Bucket ownership and handover"), as a pure
 * function of what the member sees: the ring's Leases, its own clock, and the buckets it holds. The
 * coordinator carries the decisions out; tables test them here.
 */
import { assignBuckets } from './ring.ts';

/** A member Lease as one observer sees it. */
export interface ObservedMember {
  /** The Lease's name, to delete it once long expired. */
  readonly leaseName: string;
  readonly identity: string;
  /** When this observer last saw the Lease's renewTime change, on its own clock. */
  readonly observedAt: number;
  readonly leaseDurationMs: number;
}

/** A bucket Lease: its holder ('' when free) and the version a conditional write must name. */
export interface ObservedBucket {
  readonly holder: string;
  readonly resourceVersion: string;
}

/** What this member does with a bucket it holds: taking it (caches not yet filled), working on it, or letting it go. */
export type LocalBucketState = 'acquiring' | 'active' | 'draining';

export interface ShardRoundInput {
  readonly identity: string;
  readonly now: number;
  /** When this member's own Lease was last renewed successfully; undefined before the first renewal. */
  readonly selfRenewedAt: number | undefined;
  readonly renewDeadlineMs: number;
  /** How long an expired member Lease stays before a member deletes it. */
  readonly memberGcAfterMs: number;
  readonly bucketCount: number;
  /** Member Leases of the ring, this member's own included once it exists. */
  readonly members: readonly ObservedMember[];
  /** Bucket Leases that exist, by bucket. */
  readonly buckets: ReadonlyMap<number, ObservedBucket>;
  /** The buckets this member holds, and what it is doing with each. */
  readonly local: ReadonlyMap<number, LocalBucketState>;
  /** The resourceVersion of this member's last write of each bucket Lease it holds. */
  readonly written: ReadonlyMap<number, string>;
}

/** A bucket to take: free, held by a member that is gone, or without a Lease yet. */
export interface Acquisition {
  readonly bucket: number;
  /** The Lease to update on condition of its version; undefined: create it. */
  readonly lease: ObservedBucket | undefined;
  /** Taken from a holder that stopped renewing, rather than released or never held. */
  readonly takeover: boolean;
}

export interface ShardRound {
  /** This member could not renew within the deadline: it must stop all work now. */
  readonly fence: boolean;
  /** Live members, this one included once renewed. */
  readonly live: readonly string[];
  /** The desired owner of each bucket. */
  readonly owners: readonly string[];
  /** Buckets this member must let go (drain, then release). */
  readonly release: readonly number[];
  readonly acquire: readonly Acquisition[];
  /** Buckets this member thinks it holds whose Lease names another holder: stop at once, release nothing. */
  readonly lost: readonly number[];
  /** Member Leases expired long enough to delete. */
  readonly collect: readonly string[];
}

const NOTHING: Omit<ShardRound, 'fence' | 'live' | 'owners'> = { release: [], acquire: [], lost: [], collect: [] };

/** Decides one round. */
export function decideShardRound(input: ShardRoundInput): ShardRound {
  const selfLive = input.selfRenewedAt !== undefined && input.now - input.selfRenewedAt < input.renewDeadlineMs;
  if (input.selfRenewedAt !== undefined && !selfLive) {
    return { fence: true, live: [], owners: [], ...NOTHING };
  }
  const live = liveMembers(input, selfLive);
  const owners = selfLive ? assignBuckets(live, { buckets: input.bucketCount }) : [];
  const liveSet = new Set(live);
  const lost: number[] = [];
  const release: number[] = [];
  for (const [bucket, state] of input.local) {
    if (takenFromUs(input, bucket)) {
      lost.push(bucket);
    } else if (state !== 'draining' && owners[bucket] !== input.identity) {
      release.push(bucket);
    }
  }
  return {
    fence: false,
    live,
    owners,
    release,
    lost,
    acquire: acquisitions(input, owners, liveSet),
    collect: collectable(input),
  };
}

/**
 * Another member wrote itself as holder after our own write. The cache lags our writes, so a Lease
 * that still shows its previous holder (or our own release, a moment early) is not a loss: only a
 * version newer than the one we wrote counts.
 */
function takenFromUs(input: ShardRoundInput, bucket: number): boolean {
  const lease = input.buckets.get(bucket);
  const written = input.written.get(bucket);
  if (lease === undefined || lease.holder === '' || lease.holder === input.identity || written === undefined) {
    return false;
  }
  return isNewerVersion(lease.resourceVersion, written);
}

/**
 * Whether `a` is a later resourceVersion than `b`. They are etcd revisions, so integers compare; a
 * version that is not one (another storage) is newer whenever it differs.
 */
export function isNewerVersion(a: string, b: string): boolean {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) {
    return BigInt(a) > BigInt(b);
  }
  return a !== b;
}

function liveMembers(input: ShardRoundInput, selfLive: boolean): string[] {
  const live = new Set<string>();
  for (const member of input.members) {
    if (member.identity !== input.identity && member.observedAt + member.leaseDurationMs > input.now) {
      live.add(member.identity);
    }
  }
  if (selfLive) {
    live.add(input.identity);
  }
  return [...live].sort();
}

function acquisitions(input: ShardRoundInput, owners: readonly string[], live: ReadonlySet<string>): Acquisition[] {
  const acquire: Acquisition[] = [];
  owners.forEach((owner, bucket) => {
    if (owner !== input.identity || input.local.has(bucket)) {
      return;
    }
    const lease = input.buckets.get(bucket);
    const holder = lease?.holder ?? '';
    if (holder === '' || holder === input.identity) {
      acquire.push({ bucket, lease, takeover: false });
    } else if (!live.has(holder)) {
      acquire.push({ bucket, lease, takeover: true });
    }
  });
  return acquire;
}

function collectable(input: ShardRoundInput): string[] {
  return input.members
    .filter(
      (member) =>
        member.identity !== input.identity &&
        member.observedAt + member.leaseDurationMs + input.memberGcAfterMs <= input.now,
    )
    .map((member) => member.leaseName);
}
