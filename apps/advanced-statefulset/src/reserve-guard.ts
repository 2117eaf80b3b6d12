/**
 * The guard against a `reserveOrdinals` edit that condemns every pod of a running set (a typo such as
 * `"0-100"` would delete them all; OpenKruise carries it out). Only the reserve list may trip it: a
 * moved `ordinals.start` also condemns every pod, and that move is carried out as OpenKruise does
 * (new ordinals first, then the old pods, under the pod management policy).
 */
import { inRange, replicaRange, ReservedOrdinals } from './ordinals.ts';

const NOTHING_RESERVED = new ReservedOrdinals([]);

/** What the guard reads: the spec's window and the ordinals of the set's pods. */
export interface ReserveGuardInput {
  readonly replicas: number;
  readonly start: number;
  readonly reserved: ReservedOrdinals;
  readonly podOrdinals: readonly number[];
}

/**
 * Whether the reserve list is what condemns every pod: none is in the window with it, and some would
 * be without it. A set scaled to 0 or without pods condemns nothing worth guarding.
 */
export function reserveCondemnsEveryPod(input: ReserveGuardInput): boolean {
  const { replicas, start, podOrdinals } = input;
  if (replicas === 0 || podOrdinals.length === 0 || input.reserved.size === 0) {
    return false;
  }
  const withReserve = replicaRange({ replicas, start, reserved: input.reserved });
  if (podOrdinals.some((ordinal) => inRange(withReserve, ordinal))) {
    return false;
  }
  const withoutReserve = replicaRange({ replicas, start, reserved: NOTHING_RESERVED });
  return podOrdinals.some((ordinal) => inRange(withoutReserve, ordinal));
}
