/**
 * Reads the length and pattern checks of a zod schema (`.min()`, `.max()`, `.length()`, `.regex()`),
 * which zod keeps as check objects rather than as public getters on arrays.
 */
import type { z } from 'zod';

/** Bounds and patterns collected from the checks of one schema node. */
export interface LengthChecks {
  readonly minimum?: number;
  readonly maximum?: number;
  readonly patterns: readonly RegExp[];
}

interface MutableLengthChecks {
  minimum?: number;
  maximum?: number;
  patterns: RegExp[];
}

type CheckDef = Readonly<Record<string, unknown>>;

const contributors: Readonly<Record<string, (into: MutableLengthChecks, def: CheckDef) => void>> = {
  min_length: (into, def) => {
    if (typeof def['minimum'] === 'number') {
      into.minimum = Math.max(into.minimum ?? 0, def['minimum']);
    }
  },
  max_length: (into, def) => {
    if (typeof def['maximum'] === 'number') {
      into.maximum = Math.min(into.maximum ?? Infinity, def['maximum']);
    }
  },
  length_equals: (into, def) => {
    if (typeof def['length'] === 'number') {
      into.minimum = def['length'];
      into.maximum = def['length'];
    }
  },
  string_format: (into, def) => {
    if (def['format'] === 'regex' && def['pattern'] instanceof RegExp) {
      into.patterns.push(def['pattern']);
    }
  },
};

/** Collects the length bounds and regex patterns declared on `schema` (not on its wrappers). */
export function lengthChecksOf(schema: z.ZodType): LengthChecks {
  const into: MutableLengthChecks = { patterns: [] };
  for (const check of schema.def.checks ?? []) {
    const def = check._zod.def as unknown as CheckDef;
    const kind = def['check'];
    if (typeof kind === 'string') {
      contributors[kind]?.(into, def);
    }
  }
  return into;
}
