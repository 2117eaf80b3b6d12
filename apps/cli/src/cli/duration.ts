/**
 * Durations on the command line, as kubectl takes them (Go's time.ParseDuration, without the units
 * below a millisecond): `90s`, `10m`, `1h30m`, `1.5s`; a bare `0` means "no limit" where allowed.
 */
import { InvalidArgumentError } from 'commander';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;

/** Milliseconds of `value`; `0` (or `0s`) only when `allowZero`, for "wait forever". */
export function parseDuration(value: string, allowZero: boolean): number {
  if (value === '0' && allowZero) {
    return 0;
  }
  if (!DURATION.test(value)) {
    throw new InvalidArgumentError('it must be a duration such as 30s, 10m or 1h30m.');
  }
  let total = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    total += Number(amount) * (UNIT_MS[unit ?? 's'] ?? 1000);
  }
  if (total <= 0 && !allowZero) {
    throw new InvalidArgumentError('it must be longer than 0.');
  }
  return total;
}
