/**
 * Whether a signal has aborted. A function rather than `signal.aborted` inline: after a loop guard such
 * as `while (!signal.aborted)` TypeScript narrows the property to false and cannot see that an await
 * in between may have changed it.
 */
export function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}
