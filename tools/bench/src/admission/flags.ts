/**
 * `npm run bench -- admission [flags]`: the command line of the admission-latency run, validated
 * with zod so that a bad value fails with the flag's name before any cluster starts.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';

import { z } from 'zod';

import { BenchFlagError } from '../bench-flags.ts';
import type { OurRuntime } from '../contenders/our-processes.ts';

const count = (min: number, max: number): z.ZodCoercedNumber => z.coerce.number().int().min(min).max(max);

const flagsSchema = z.strictObject({
  creates: count(1, 100_000).default(1_000),
  warmup: count(0, 10_000).default(20),
  runtime: z.enum(['bundle', 'source']).default('bundle'),
  out: z.string().min(1).optional(),
  'work-dir': z.string().min(1).optional(),
});

export interface AdmissionOptions {
  /** Measured CloneSet creates per phase. */
  readonly creates: number;
  /** Creates before each phase's window (connections, caches and JIT warm up), not in any figure. */
  readonly warmup: number;
  /** How our launcher runs: the image's bundle with the chart's settings, or its TypeScript sources. */
  readonly runtime: OurRuntime;
  /** The JSON result's path. */
  readonly outFile: string;
  /** The cluster, its logs and the launchers' output. */
  readonly workDir: string;
}

/** Parses the flags after `admission`; `stamp` names the default files. Throws BenchFlagError naming the flag. */
export function parseAdmissionFlags(argv: readonly string[], stamp: string): AdmissionOptions {
  let values: ReturnType<typeof parseArgs>['values'];
  try {
    const options = Object.fromEntries(
      Object.keys(flagsSchema.shape).map((name) => [name, { type: 'string' as const }]),
    );
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new BenchFlagError(error instanceof Error ? error.message : String(error));
  }
  const flags = flagsSchema.safeParse(values);
  if (!flags.success) {
    throw new BenchFlagError(
      `invalid flags:\n${flags.error.issues.map((issue) => `  --${issue.path.map(String).join('.')}: ${issue.message}`).join('\n')}`,
    );
  }
  const base = `admission-${String(flags.data.creates)}-${stamp}`;
  return {
    creates: flags.data.creates,
    warmup: flags.data.warmup,
    runtime: flags.data.runtime,
    outFile: path.resolve(flags.data.out ?? path.join('bench-results', `${base}.json`)),
    workDir: path.resolve(flags.data['work-dir'] ?? path.join('bench-results', `${base}-work`)),
  };
}
