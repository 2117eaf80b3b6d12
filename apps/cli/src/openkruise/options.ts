/**
 * The flags of `migrate from-openkruise`, checked where they enter the program: a bad value is a
 * usage error (exit 2) before the cluster is touched. `--dry-run` and `--timeout` are parsed by
 * `migrate` itself (commander gives a parent's options to the parent wherever they stand), so they
 * arrive here with the parent's values.
 */
import { z } from 'zod';

import { UsageError } from '../cli/cli-errors.ts';
import { DEFAULT_TIMEOUT_MS } from '../migration/options.ts';
import { OPENKRUISE_DEFAULT_NAMESPACE } from './openkruise-names.ts';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const fromOpenKruiseOptionsSchema = z.object({
  openkruiseNamespace: z.string().default(OPENKRUISE_DEFAULT_NAMESPACE),
  dryRun: z.boolean().default(false),
  timeout: z.number().positive().default(DEFAULT_TIMEOUT_MS),
  // `migrate deployment/NAME`'s own flags, refused here.
  to: z.string().optional(),
  name: z.string().optional(),
  maxSurge: z.unknown().optional(),
});

export interface FromOpenKruiseOptions {
  readonly openKruiseNamespace: string;
  readonly dryRun: boolean;
  readonly timeout: number;
}

/** Commander's values for `migrate from-openkruise` (with its parent's), typed and checked. */
export function fromOpenKruiseOptions(values: unknown): FromOpenKruiseOptions {
  const options = fromOpenKruiseOptionsSchema.parse(values);
  const foreign = [
    options.to === undefined ? [] : ['--to'],
    options.name === undefined ? [] : ['--name'],
    options.maxSurge === undefined ? [] : ['--max-surge'],
  ].flat();
  if (foreign.length > 0) {
    throw new UsageError(
      `migrate from-openkruise does not take ${foreign.join(', ')}`,
      'those are flags of migrate deployment/NAME --to cloneset',
    );
  }
  if (options.openkruiseNamespace.length > 63 || !DNS_LABEL.test(options.openkruiseNamespace)) {
    throw new UsageError(
      `invalid namespace ${JSON.stringify(options.openkruiseNamespace)} for --openkruise-namespace: it must consist of lower case letters, digits and '-', and start and end with a letter or digit`,
    );
  }
  return { openKruiseNamespace: options.openkruiseNamespace, dryRun: options.dryRun, timeout: options.timeout };
}
