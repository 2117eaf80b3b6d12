import { z } from 'zod';

import { managerFlagsSchema as runtimeManagerFlagsSchema, parseFlags } from '@kruise-ts/controller-runtime';
import { shardingFlagsShape } from '@kruise-ts/sharding';

import { featureGatesSchema } from './feature-gates/feature-gates.ts';
import { OPENKRUISE_MANAGER_FLAGS } from './openkruise-flags.ts';

/**
 * The flags every kruise-ts controller accepts: the runtime's manager flags, the sharding flags
 * (`--sharding`, `--shard-label-qps`) and kruise-ts's `--feature-gates`; the Lease's namespace
 * defaults to OpenKruise's (`kruise-system`, where the chart installs by default).
 */
export const managerFlagsSchema = runtimeManagerFlagsSchema.extend({
  ...shardingFlagsShape,
  'leader-election-namespace': z.string().min(1).default('kruise-system'),
  'feature-gates': featureGatesSchema.prefault(''),
});

/** Parsed manager flags. */
export type ManagerFlags = z.output<typeof managerFlagsSchema>;

/**
 * Parses `--flag=value` / `--flag value` arguments (a bare boolean flag means true) into validated
 * options. Unknown flags and bad values throw FlagError naming the flag, never a stack trace from
 * deep inside start-up. OpenKruise's manager flags are accepted (`OPENKRUISE_MANAGER_FLAGS`).
 */
export function parseManagerFlags(argv: readonly string[]): ManagerFlags {
  return parseFlags(argv, managerFlagsSchema, OPENKRUISE_MANAGER_FLAGS);
}
