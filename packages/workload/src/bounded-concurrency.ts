/**
 * Runs one API write per item with at most `limit` in flight. OpenKruise's CloneSet writes one pod
 * after another within a reconcile; a wave of 200 in-place updates then takes 600 sequential round
 * trips. Bounded concurrency lets the client's rate limiter, not the round-trip time, set the pace,
 * while a failure still surfaces: every item runs, then the first error (in item order) is thrown.
 */

/** Default bound of writes in flight per reconcile. */
export const POD_WRITE_CONCURRENCY = 64;

/** Results in item order; throws the first item's error after all items have run. */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = await settleWithConcurrency(items, limit, run);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    throw failed.reason;
  }
  return results.map((result) => (result as PromiseFulfilledResult<R>).value);
}

/**
 * Every item's outcome in item order, never throwing: for callers that must keep the bookkeeping of
 * the writes that went through (expectations, the pods as written) when others failed.
 */
export async function settleWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const results = new Array<PromiseSettledResult<R>>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) {
      try {
        results[index] = { status: 'fulfilled', value: await run(items[index] as T, index) };
      } catch (error) {
        results[index] = { status: 'rejected', reason: error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
