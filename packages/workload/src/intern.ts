/**
 * One copy of each repeated string in the pod cache. V8's JSON parser shares only strings of up to
 * 10 characters, so every decoded pod brings its own copy of values that thousands of pods have in
 * common: condition types (`InPlaceUpdateReady`), timestamps of the same second, image names and
 * digests, the owner's uid and apiVersion, the revision label. A cache transform passes those values
 * through {@link intern} and the copies become garbage at once.
 */

/** Distinct values kept; the table is cleared when full, as a bounded cache rather than one that grows with the cluster. */
const CAPACITY = 16_384;

const table = new Map<string, string>();

/** The first copy seen of an equal string (the value itself the first time). */
export function intern(value: string): string {
  const known = table.get(value);
  if (known !== undefined) {
    return known;
  }
  if (table.size >= CAPACITY) {
    table.clear();
  }
  table.set(value, value);
  return value;
}

/** A string map (labels, annotations) with its values interned; keys are shared by the JSON parser already. */
export function internValues(record: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined {
  if (record === undefined) {
    return undefined;
  }
  const result: Record<string, string> = {};
  for (const key of Object.keys(record)) {
    result[key] = intern(record[key] ?? '');
  }
  return result;
}
