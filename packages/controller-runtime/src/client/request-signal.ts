/**
 * One request's abort signal: aborted with the reason of the first of `sources` that aborts, or with a
 * TimeoutError after `timeoutMs`; `release` removes its listeners and timer once the request is done.
 *
 * `AbortSignal.any` and `AbortSignal.timeout` give the same signal, at a cost that outlives the
 * request: every composite signal is tracked through weak references until it is collected, and every
 * timeout's timer runs its full 30 s and then fires. After a burst of thousands of writes, those
 * timers were what our process did for the next 30 s: the idle tail that made its idle CPU 3.4–3.6×
 * kruise-manager's (docs/benchmarks.md, "Issue 41"), and 2–3% of a 1,000-pod ReCreate's CPU.
 */
export interface RequestSignal {
  readonly signal: AbortSignal;
  readonly release: () => void;
}

export function requestSignal(
  sources: readonly (AbortSignal | undefined)[],
  timeoutMs: number | undefined,
): RequestSignal {
  const controller = new AbortController();
  const listening: AbortSignal[] = [];
  let timer: NodeJS.Timeout | undefined;
  const release = (): void => {
    for (const source of listening) {
      source.removeEventListener('abort', onAbort);
    }
    listening.length = 0;
    clearTimeout(timer);
  };
  function onAbort(this: AbortSignal): void {
    release();
    controller.abort(this.reason);
  }
  for (const source of sources) {
    if (source?.aborted === true) {
      controller.abort(source.reason);
      return { signal: controller.signal, release };
    }
    if (source !== undefined) {
      source.addEventListener('abort', onAbort);
      listening.push(source);
    }
  }
  if (timeoutMs !== undefined) {
    timer = setTimeout(() => {
      release();
      controller.abort(new DOMException(`the request timed out after ${String(timeoutMs)} ms`, 'TimeoutError'));
    }, timeoutMs);
  }
  return { signal: controller.signal, release };
}
