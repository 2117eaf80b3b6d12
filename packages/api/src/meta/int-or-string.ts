/**
 * Kubernetes IntOrString (an int32 or a string) and the "integer or percentage" fields built on it
 * (partition, maxUnavailable, maxSurge), with the CEL rule that checks their format in the CRD.
 */
import { z } from 'zod';

import { withCrdMeta } from '../crd/schema-metadata.ts';

/** An int32 or a string, emitted as `x-kubernetes-int-or-string: true`. */
export const intOrStringSchema = z.union([z.int32(), z.string()]);

/** A Kubernetes IntOrString value. */
export type IntOrString = z.infer<typeof intOrStringSchema>;

/**
 * A percentage as OpenKruise's scaler parses it (`strconv.ParseFloat` of the text before `%`), restricted
 * to plain decimal notation: "20%", "12.5%", "0%". Signs, exponents, spaces and a bare "5" are refused.
 */
export const PERCENT_PATTERN = '^[0-9]+([.][0-9]+)?%$';

/** A percentage not above 100%, for fields where more than all pods means nothing. */
export const PERCENT_AT_MOST_100_PATTERN = '^0*(100([.]0+)?|[0-9]{1,2}([.][0-9]+)?)%$';

/** Options of {@link intOrPercentSchema}. */
export interface IntOrPercentOptions {
  /** Full field path used in the error message, for example `spec.updateStrategy.partition`. */
  readonly path: string;
  readonly description: string;
  /** Reject percentages above 100%. */
  readonly atMost100Percent?: boolean;
}

/**
 * An IntOrString that must be a non-negative integer or a percentage string, checked by a CEL rule on
 * the node (the zod schema itself only checks the int-or-string shape, so stored objects always parse).
 */
export function intOrPercentSchema(options: IntOrPercentOptions): typeof intOrStringSchema {
  const pattern = options.atMost100Percent === true ? PERCENT_AT_MOST_100_PATTERN : PERCENT_PATTERN;
  const percent =
    options.atMost100Percent === true ? 'a percentage from "0%" to "100%"' : 'a percentage such as "20%" or "12.5%"';
  return withCrdMeta(intOrStringSchema, {
    description: options.description,
    validations: [
      {
        rule: `type(self) == int ? self >= 0 : self.matches('${pattern}')`,
        // The API server shows an int-or-string value as "" in its error, so the message quotes it.
        messageExpression: `'${options.path}: must be a non-negative integer or ${percent}, got ' + (type(self) == string ? '"' + self + '"' : string(self))`,
      },
    ],
  });
}

/** A parsed IntOrString: an absolute number or a percentage (possibly fractional). */
export type IntOrPercent =
  { readonly kind: 'int'; readonly value: number } | { readonly kind: 'percent'; readonly value: number };

const PERCENT_REGEX = new RegExp(PERCENT_PATTERN);

/** Parses an integer or a percentage string in the format of {@link PERCENT_PATTERN}; undefined otherwise. */
export function parseIntOrPercent(value: IntOrString): IntOrPercent | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) ? { kind: 'int', value } : undefined;
  }
  if (!PERCENT_REGEX.test(value)) {
    return undefined;
  }
  return { kind: 'percent', value: Number.parseFloat(value.slice(0, -1)) };
}

/** Options of {@link scaledValueFromIntOrPercent}. */
export interface ScaledValueOptions {
  readonly value: IntOrString;
  /** The number a percentage is taken of (usually replicas). */
  readonly total: number;
  readonly roundUp: boolean;
}

/**
 * Resolves an integer or a percentage of `total`, rounding the percentage up or down, as OpenKruise's
 * scaler does for partition and the webhook checks (fractional percentages allowed). For example
 * "12.5%" of 10 is 2 rounded up and 1 rounded down. Throws on a value that is neither.
 */
export function scaledValueFromIntOrPercent(options: ScaledValueOptions): number {
  const parsed = parseIntOrPercent(options.value);
  if (parsed === undefined) {
    throw new RangeError(`invalid integer or percentage: ${JSON.stringify(options.value)}`);
  }
  if (parsed.kind === 'int') {
    return parsed.value;
  }
  const exact = (parsed.value * options.total) / 100;
  return options.roundUp ? Math.ceil(exact) : Math.floor(exact);
}
