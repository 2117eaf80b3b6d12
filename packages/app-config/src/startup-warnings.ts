import { compatibilityNotes } from '@kruise-ts/controller-runtime';
import type { FlagCompat } from '@kruise-ts/controller-runtime';

import type { FeatureGates } from './feature-gates/feature-gates.ts';
import { unimplementedGateWarnings } from './feature-gates/unimplemented-gates.ts';

/**
 * Logs, once at start-up, what the command line asked for that kruise-ts takes differently:
 * OpenKruise flag names (aliases and no-ops) and feature gates turned on that change nothing.
 */
export function logStartupWarnings(
  // Only warn is used: any pino logger (createLogger's) fits, without app-config depending on pino.
  logger: { warn(message: string): void },
  input: { readonly argv: readonly string[]; readonly compat: FlagCompat; readonly gates: FeatureGates },
): void {
  for (const note of compatibilityNotes(input.argv, input.compat)) {
    logger.warn(note);
  }
  for (const warning of unimplementedGateWarnings(input.gates)) {
    logger.warn(warning);
  }
}
