import { z } from 'zod';

import { FeatureGateError, describeFeatureGateProblem } from './feature-gate-error.ts';
import type { FeatureGateProblem } from './feature-gate-error.ts';
import { featureGateNames, isGateOf } from './feature-gates.ts';
import type { FeatureGateOverrides, FeatureGates, FeatureGateTable } from './feature-gates.ts';

/**
 * What `--feature-gates` is parsed against: the table, and how the program builds its gates from
 * explicit settings (an app may keep its own `FeatureGates` subclass bound to its table).
 */
export interface FeatureGateParser<N extends string, G extends FeatureGates<N>> {
  readonly table: FeatureGateTable<N>;
  readonly create: (overrides: FeatureGateOverrides<N>) => G;
}

type ParseResult<G> =
  { readonly ok: true; readonly gates: G } | { readonly ok: false; readonly problems: readonly FeatureGateProblem[] };

/**
 * Parses a `--feature-gates` value (`A=true,B=false`), the format of Kubernetes components and
 * OpenKruise. Whitespace around items, names and values is ignored and empty items are skipped (as
 * Kubernetes does); names are case-sensitive; values must be exactly `true` or `false` (stricter than
 * Go's `strconv.ParseBool`, so `1` or `True` are rejected rather than guessed); a repeated gate takes
 * its last value. The empty string gives the defaults. Dependency rules are applied afterwards.
 *
 * @throws FeatureGateError naming each bad gate or value and listing the known gates.
 */
export function parseFeatureGates<N extends string, G extends FeatureGates<N>>(
  flag: string,
  parser: FeatureGateParser<N, G>,
): G {
  const result = tryParseFeatureGates(flag, parser);
  if (!result.ok) {
    throw new FeatureGateError(result.problems, featureGateNames(parser.table), flag);
  }
  return result.gates;
}

/**
 * The zod form of `parseFeatureGates` for flag and config parsing: a string in, `FeatureGates` out,
 * one issue per problem instead of a throw.
 */
export function featureGatesSchema<N extends string, G extends FeatureGates<N>>(
  parser: FeatureGateParser<N, G>,
): z.ZodType<G, string> {
  const known = featureGateNames(parser.table);
  return z.string().transform((flag, ctx) => {
    const result = tryParseFeatureGates(flag, parser);
    if (result.ok) {
      return result.gates;
    }
    for (const problem of result.problems) {
      ctx.issues.push({ code: 'custom', message: describeFeatureGateProblem(problem, known), input: flag });
    }
    return z.NEVER;
  });
}

function tryParseFeatureGates<N extends string, G extends FeatureGates<N>>(
  flag: string,
  parser: FeatureGateParser<N, G>,
): ParseResult<G> {
  const overrides: Partial<Record<N, boolean>> = {};
  const problems: FeatureGateProblem[] = [];
  for (const item of flag.split(',')) {
    const parsed = parseItem(item.trim(), parser.table);
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
  return buildGates(overrides, parser);
}

type ParsedItem<N extends string> =
  { readonly name: N; readonly value: boolean } | { readonly problem: FeatureGateProblem };

function parseItem<N extends string>(item: string, table: FeatureGateTable<N>): ParsedItem<N> | undefined {
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
  if (!isGateOf(table, name)) {
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

function buildGates<N extends string, G extends FeatureGates<N>>(
  overrides: FeatureGateOverrides<N>,
  parser: FeatureGateParser<N, G>,
): ParseResult<G> {
  try {
    return { ok: true, gates: parser.create(overrides) };
  } catch (error) {
    if (error instanceof FeatureGateError) {
      return { ok: false, problems: error.problems };
    }
    throw error;
  }
}
