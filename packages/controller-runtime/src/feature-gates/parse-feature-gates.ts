import { z } from 'zod';

import { FeatureGateError, describeFeatureGateProblem } from './feature-gate-error.ts';
import type { FeatureGateProblem } from './feature-gate-error.ts';
import { FeatureGates } from './feature-gates.ts';
import type { FeatureGateOverrides } from './feature-gates.ts';
import { isFeatureGateName } from './known-gates.ts';
import type { FeatureGateName } from './known-gates.ts';

type ParseResult =
  | { readonly ok: true; readonly gates: FeatureGates }
  | { readonly ok: false; readonly problems: readonly FeatureGateProblem[] };

/**
 * Parses a `--feature-gates` value (`A=true,B=false`), the format of Kubernetes components and
 * OpenKruise. Whitespace around items, names and values is ignored and empty items are skipped (as
 * Kubernetes does); names are case-sensitive; values must be exactly `true` or `false` (stricter than
 * Go's `strconv.ParseBool`, so `1` or `True` are rejected rather than guessed); a repeated gate takes
 * its last value. The empty string gives the defaults. Dependency rules are applied afterwards.
 *
 * @throws FeatureGateError naming each bad gate or value and listing the known gates.
 */
export function parseFeatureGates(flag: string): FeatureGates {
  const result = tryParseFeatureGates(flag);
  if (!result.ok) {
    throw new FeatureGateError(result.problems, flag);
  }
  return result.gates;
}

/**
 * The zod form of `parseFeatureGates` for flag and config parsing: a string in, `FeatureGates` out,
 * one issue per problem instead of a throw.
 */
export const featureGatesSchema: z.ZodType<FeatureGates, string> = z.string().transform((flag, ctx) => {
  const result = tryParseFeatureGates(flag);
  if (result.ok) {
    return result.gates;
  }
  for (const problem of result.problems) {
    ctx.issues.push({ code: 'custom', message: describeFeatureGateProblem(problem), input: flag });
  }
  return z.NEVER;
});

function tryParseFeatureGates(flag: string): ParseResult {
  const overrides: Partial<Record<FeatureGateName, boolean>> = {};
  const problems: FeatureGateProblem[] = [];
  for (const item of flag.split(',')) {
    const parsed = parseItem(item.trim());
    if (parsed === undefined) {
      continue;
    }
    if ('problem' in parsed) {
      problems.push(parsed.problem);
    } else {
      overrides[parsed.name] = parsed.value;
    }
  }
  if (problems.length > 0) {
    return { ok: false, problems };
  }
  return buildGates(overrides);
}

type ParsedItem =
  { readonly name: FeatureGateName; readonly value: boolean } | { readonly problem: FeatureGateProblem };

function parseItem(item: string): ParsedItem | undefined {
  if (item === '') {
    return undefined;
  }
  const equals = item.indexOf('=');
  if (equals < 0) {
    return {
      problem: { kind: 'syntax', message: `missing "=" in ${JSON.stringify(item)}: want Name=true or Name=false` },
    };
  }
  const name = item.slice(0, equals).trim();
  const value = item.slice(equals + 1).trim();
  if (!isFeatureGateName(name)) {
    return { problem: { kind: 'unknown-gate', message: `unknown feature gate ${JSON.stringify(name)}` } };
  }
  if (value !== 'true' && value !== 'false') {
    return {
      problem: {
        kind: 'bad-value',
        message: `invalid value ${JSON.stringify(value)} for feature gate "${name}": want true or false`,
      },
    };
  }
  return { name, value: value === 'true' };
}

function buildGates(overrides: FeatureGateOverrides): ParseResult {
  try {
    return { ok: true, gates: new FeatureGates(overrides) };
  } catch (error) {
    if (error instanceof FeatureGateError) {
      return { ok: false, problems: error.problems };
    }
    throw error;
  }
}
