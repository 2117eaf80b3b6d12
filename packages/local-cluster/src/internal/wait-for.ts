import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitForOptions {
  /** What is awaited, for the timeout message. */
  readonly description: string;
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
}

/**
 * Polls `probe` until it returns a value other than undefined/false and returns that value. On timeout
 * it throws with the description and the last error the probe threw, so a failing integration test
 * says what never happened. The timeout is a bound against hanging, not a speed assertion.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined | false>, options: WaitForOptions): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) {
        return value;
      }
    } catch (error) {
      lastError = error;
    }
    await sleep(options.intervalMs ?? 100);
  }
  const cause = lastError === undefined ? '' : ` (last error: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)})`;
  throw new Error(`timed out after ${String(options.timeoutMs ?? 30_000)}ms waiting for ${options.description}${cause}`);
}
