/**
 * The assignment of buckets to live members: a consistent hash ring with bounded loads (Mirrokni,
 * Thorup and Zadimoghaddam, 2018). Every member computes it from the same member set and gets the
 * same answer, so no component decides it; a member that joins or leaves moves few buckets, and none
 * gets more than `loadFactor` times the mean.
 */
import { SHARD_BUCKETS, shardHash } from './bucket.ts';

export interface RingOptions {
  readonly buckets?: number;
  /** Points of each member on the ring: more spread the shares more evenly before the bound applies. */
  readonly virtualPoints?: number;
  /** The most buckets a member may get, as a multiple of the mean. */
  readonly loadFactor?: number;
}

const DEFAULT_VIRTUAL_POINTS = 64;
const DEFAULT_LOAD_FACTOR = 1.1;

interface Point {
  readonly hash: number;
  readonly member: string;
}

/**
 * The owner of every bucket (index: bucket number), or an empty array when there are no members.
 * Buckets are placed in order, each at its own hash, with the first member clockwise that still has
 * room.
 */
export function assignBuckets(members: readonly string[], options: RingOptions = {}): string[] {
  const unique = [...new Set(members)].sort();
  if (unique.length === 0) {
    return [];
  }
  const buckets = options.buckets ?? SHARD_BUCKETS;
  const capacity = Math.ceil((buckets / unique.length) * (options.loadFactor ?? DEFAULT_LOAD_FACTOR));
  const points = ringPoints(unique, options.virtualPoints ?? DEFAULT_VIRTUAL_POINTS);
  const load = new Map<string, number>();
  const owners: string[] = [];
  for (let bucket = 0; bucket < buckets; bucket++) {
    let index = firstPointAtOrAfter(points, shardHash(`bucket-${String(bucket)}`));
    // Terminates: the capacities add up to at least the buckets, so some member always has room.
    for (;;) {
      const member = (points[index % points.length] as Point).member;
      const taken = load.get(member) ?? 0;
      if (taken < capacity) {
        load.set(member, taken + 1);
        owners.push(member);
        break;
      }
      index++;
    }
  }
  return owners;
}

/** The buckets `assignBuckets` gives one member. */
export function bucketsOf(owners: readonly string[], member: string): number[] {
  const mine: number[] = [];
  owners.forEach((owner, bucket) => {
    if (owner === member) {
      mine.push(bucket);
    }
  });
  return mine;
}

function ringPoints(members: readonly string[], virtualPoints: number): Point[] {
  const points: Point[] = [];
  for (const member of members) {
    for (let i = 0; i < virtualPoints; i++) {
      points.push({ hash: shardHash(`${member}#${String(i)}`), member });
    }
  }
  // Ties (two members' points on one hash) are broken by name, so every member sorts alike.
  return points.sort((a, b) => a.hash - b.hash || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
}

/** Index of the first point with hash >= `hash`, or points.length (wrapping to 0 by the caller's modulo). */
function firstPointAtOrAfter(points: readonly Point[], hash: number): number {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((points[middle] as Point).hash < hash) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}
