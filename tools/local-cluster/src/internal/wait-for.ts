import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitForOptions {
  /** What is awaited, for the timeout message. */
  readonly description: string;
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
  /** What the world looked like, read once on timeout and put in the message: a flake in CI then says where it stopped. */
  readonly state?: () => Promise<unknown>;
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
  throw new Error(await timeoutMessage(options, lastError));
}

async function timeoutMessage(options: WaitForOptions, lastError: unknown): Promise<string> {
  const cause =
    lastError === undefined
      ? ''
      : ` (last error: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)})`;
  const state = options.state === undefined ? '' : `; state: ${await describeState(options.state)}`;
  return `timed out after ${String(options.timeoutMs ?? 30_000)}ms waiting for ${options.description}${cause}${state}`;
}

async function describeState(read: () => Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify(await read());
  } catch (error) {
    return `unreadable (${error instanceof Error ? error.message : String(error)})`;
  }
}
