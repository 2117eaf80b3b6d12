/**
 * The flags of `migrate`, checked where they enter the program: a bad value is a usage error (exit 2)
 * before the cluster is touched.
 */
import { InvalidArgumentError } from 'commander';
import { z } from 'zod';

import { UsageError } from '../cli/cli-errors.ts';
import { parseDuration } from '../cli/duration.ts';
import { resolveKind } from '../resources/kinds.ts';
import type { MaxSurge } from './plan.ts';

export const DEFAULT_MAX_SURGE: MaxSurge = { count: 1 };
export const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** `--max-surge`: `N` (at least 1) or `P%` (above 0, at most 100). */
export function parseMaxSurge(value: string): MaxSurge {
  const percent = /^(\d+)%$/.exec(value);
  if (percent !== null) {
    const number = Number(percent[1]);
    if (number < 1 || number > 100) {
      throw new InvalidArgumentError('a percentage must be between 1% and 100%.');
    }
    return { percent: number };
  }
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('it must be a positive integer or a percentage such as 25%.');
  }
  return { count: Number(value) };
}

/** `--timeout`: a Go duration as kubectl takes it (`90s`, `10m`, `1h30m`), above 0. */
export function parseTimeout(value: string): number {
  return parseDuration(value, false);
}

const maxSurgeSchema: z.ZodType<MaxSurge> = z.union([
  z.object({ count: z.int().positive() }),
  z.object({ percent: z.int().positive() }),
]);

const migrateOptionsSchema = z.object({
  to: z.string(),
  name: z.string().optional(),
  maxSurge: maxSurgeSchema.default(DEFAULT_MAX_SURGE),
  timeout: z.number().positive().default(DEFAULT_TIMEOUT_MS),
  dryRun: z.boolean().default(false),
});

export type MigrateOptions = z.output<typeof migrateOptionsSchema>;

/** Commander's values for `migrate`, typed. */
export function migrateOptions(values: unknown): MigrateOptions {
  return migrateOptionsSchema.parse(values);
}

/** `--to`: only a CloneSet for now, in any of kubectl's spellings of it. */
export function checkTargetKind(to: string): void {
  if (resolveKind(to)?.id !== 'cloneset') {
    throw new UsageError(
      `migrate --to ${to}: a Deployment can only be migrated to a CloneSet for now`,
      'write --to cloneset',
    );
  }
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `--name`: an object name the API server will take. */
export function checkObjectName(name: string): void {
  if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
    throw new UsageError(
      `invalid CloneSet name ${JSON.stringify(name)}: it must consist of lower case letters, digits, '-' and '.', and start and end with a letter or digit`,
    );
  }
}
