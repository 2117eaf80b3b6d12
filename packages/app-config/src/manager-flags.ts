import { managerFlagsSchema, parseFlags } from '@kruise-ts/controller-runtime';
import type { ManagerFlags } from '@kruise-ts/controller-runtime';

import { OPENKRUISE_MANAGER_FLAGS } from './openkruise-flags.ts';

/**
 * Parses `--flag=value` / `--flag value` arguments (a bare boolean flag means true) into validated
 * options. Unknown flags and bad values throw FlagError naming the flag, never a stack trace from
 * deep inside start-up. OpenKruise's manager flags are accepted (`OPENKRUISE_MANAGER_FLAGS`).
 */
export function parseManagerFlags(argv: readonly string[]): ManagerFlags {
  return parseFlags(argv, managerFlagsSchema, OPENKRUISE_MANAGER_FLAGS);
}
