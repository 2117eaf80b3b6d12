/**
 * Durations on the command line, as kubectl takes them: Go's time.ParseDuration (`90s`, `10m`,
 * `1h30m`, `1.5h`, `300ms`), through the runtime's one parser; a bare `0` means "no limit" where allowed.
 */
import { InvalidArgumentError } from 'commander';

import { GoDurationError, parseGoDuration } from '@kruise-ts/controller-runtime';

/** Milliseconds of `value`; `0` (or `0s`) only when `allowZero`, for "wait forever"; never negative. */
export function parseDuration(value: string, allowZero: boolean): number {
  let milliseconds: number;
  try {
    milliseconds = parseGoDuration(value);
  } catch (error) {
    if (!(error instanceof GoDurationError)) {
      throw error;
    }
    throw new InvalidArgumentError(`it must be a duration such as 30s, 10m or 1h30m (${error.message}).`);
  }
  if (milliseconds < 0 || (milliseconds === 0 && !allowZero)) {
    throw new InvalidArgumentError(allowZero ? 'it must not be negative.' : 'it must be longer than 0.');
  }
  return milliseconds;
}
