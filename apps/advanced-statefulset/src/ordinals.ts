/**
 * Which ordinals an Advanced StatefulSet runs (OpenKruise's replica range): `replicas` ordinals from
 * `ordinals.start` (gate StatefulSetStartOrdinal), skipping `reserveOrdinals`. Pods at other ordinals
 * are condemned (scaled in, highest first).
 */

/** A `reserveOrdinals` entry: an ordinal, or an inclusive range `"a-b"`. */
export type ReserveOrdinal = number | string;

const RANGE = /^(\d+)-(\d+)$/;

/** Reserved ordinals as inclusive intervals: a range "0-1000000000" costs two numbers, not a billion. */
export class ReservedOrdinals {
  readonly #intervals: readonly (readonly [number, number])[];

  constructor(intervals: readonly (readonly [number, number])[]) {
    this.#intervals = [...intervals].sort((a, b) => a[0] - b[0]);
  }

  has(ordinal: number): boolean {
    return this.#intervals.some(([from, to]) => ordinal >= from && ordinal <= to);
  }

  /** The first ordinal ≥ `ordinal` that is not reserved. */
  nextFree(ordinal: number): number {
    let candidate = ordinal;
    for (const [from, to] of this.#intervals) {
      if (candidate >= from && candidate <= to) {
        candidate = to + 1;
      }
    }
    return candidate;
  }

  /**
   * The `count`-th (from 1) ordinal ≥ `start` that is not reserved, by skipping whole intervals:
   * what {@link replicaRange} finds one ordinal at a time, without its cost for a billion replicas.
   */
  nthFree(start: number, count: number): number {
    let position = start;
    let left = count;
    for (const [from, to] of this.#intervals) {
      if (to < position) {
        continue;
      }
      const free = Math.max(0, from - position);
      if (left <= free) {
        return position + left - 1;
      }
      left -= free;
      position = Math.max(position, to + 1);
    }
    return position + left - 1;
  }

  get size(): number {
    return this.#intervals.length;
  }
}

/** The interval of one entry, or undefined when it is not a valid ordinal or range. */
function entryInterval(entry: ReserveOrdinal): readonly [number, number] | undefined {
  if (typeof entry === 'number') {
    return Number.isSafeInteger(entry) && entry >= 0 ? [entry, entry] : undefined;
  }
  const text = entry.trim();
  if (/^\d+$/.test(text)) {
    return [Number(text), Number(text)];
  }
  const match = RANGE.exec(text);
  const [from, to] = [Number(match?.[1]), Number(match?.[2])];
  return match === null || !Number.isSafeInteger(to) || from > to ? undefined : [from, to];
}

/** What {@link parseReserveOrdinals} found: the set, or the first entry it could not read. */
export type ParsedReserveOrdinals =
  | { readonly kind: 'valid'; readonly reserved: ReservedOrdinals }
  | { readonly kind: 'invalid'; readonly entry: string; readonly reserved: ReservedOrdinals };

/**
 * The reserved ordinals. OpenKruise makes the whole set empty when one entry cannot be read; the
 * controller reports the entry instead and leaves the pods alone (see the reconciler).
 */
export function parseReserveOrdinals(entries: readonly ReserveOrdinal[] | undefined): ParsedReserveOrdinals {
  const intervals: (readonly [number, number])[] = [];
  for (const entry of entries ?? []) {
    const interval = entryInterval(entry);
    if (interval === undefined) {
      return { kind: 'invalid', entry: JSON.stringify(entry), reserved: new ReservedOrdinals([]) };
    }
    intervals.push(interval);
  }
  return { kind: 'valid', reserved: new ReservedOrdinals(intervals) };
}

/** The ordinals a set runs: `[start, end)` without the reserved ones. */
export interface ReplicaRange {
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  readonly reserved: ReservedOrdinals;
}

/** The range for `replicas` live ordinals from `start`, skipping reserved ones (A.6.3). */
export function replicaRange(input: {
  readonly replicas: number;
  readonly start: number;
  readonly reserved: ReservedOrdinals;
}): ReplicaRange {
  let end = input.start;
  for (let counted = 0; counted < input.replicas; counted++) {
    end = input.reserved.nextFree(end) + 1;
  }
  return { start: input.start, end, reserved: input.reserved };
}

/** Whether the ordinal is one the set runs. */
export function inRange(range: ReplicaRange, ordinal: number): boolean {
  return ordinal >= range.start && ordinal < range.end && !range.reserved.has(ordinal);
}

/** The ordinals the set runs, ascending. */
export function liveOrdinals(range: ReplicaRange): number[] {
  const ordinals: number[] = [];
  for (
    let ordinal = range.reserved.nextFree(range.start);
    ordinal < range.end;
    ordinal = range.reserved.nextFree(ordinal + 1)
  ) {
    ordinals.push(ordinal);
  }
  return ordinals;
}

const POD_NAME = /^(.*)-(\d+)$/;

/**
 * The ordinal of a pod of the set, from its name `<set>-<ordinal>` (upstream's
 * `getParentNameAndOrdinal`); undefined for a name of another parent or without an ordinal.
 */
export function podOrdinal(setName: string, podName: string): number | undefined {
  const match = POD_NAME.exec(podName);
  if (match?.[1] !== setName || match[2] === undefined) {
    return undefined;
  }
  const ordinal = Number(match[2]);
  return Number.isSafeInteger(ordinal) ? ordinal : undefined;
}

/** The pod name of an ordinal. */
export function podName(setName: string, ordinal: number): string {
  return `${setName}-${String(ordinal)}`;
}
