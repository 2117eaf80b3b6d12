import { FeatureGateError } from './feature-gate-error.ts';
import { applyFeatureGateDependencies } from './gate-dependencies.ts';
import type { FeatureGateDependency } from './gate-dependencies.ts';

/**
 * The gates a program accepts: each gate's default, keyed by its exact, case-sensitive name, and the
 * rules between gates, applied in order. An app's table is its configuration (kruise-ts's is in
 * @kruise-ts/app-config); the runtime only evaluates one.
 */
export interface FeatureGateTable<N extends string> {
  readonly gates: Readonly<Record<N, { readonly default: boolean }>>;
  readonly dependencies: readonly FeatureGateDependency<N>[];
}

/** Explicit settings, as a user writes them on the command line or in a test. */
export type FeatureGateOverrides<N extends string> = Partial<Readonly<Record<N, boolean>>>;

/** The table's gate names, sorted. */
export function featureGateNames<N extends string>(table: FeatureGateTable<N>): readonly N[] {
  return (Object.keys(table.gates) as N[]).sort();
}

/** Narrows a string to a gate of the table (own keys only, so `toString` or `__proto__` are not gates). */
export function isGateOf<N extends string>(table: FeatureGateTable<N>, name: string): name is N {
  return Object.hasOwn(table.gates, name);
}

/**
 * An immutable, validated set of feature gate values: the table's defaults, overlaid with explicit
 * settings, then the table's dependency rules. Built once in `main` (from `--feature-gates`) and
 * passed down as an option; libraries never read a global gate (style guide rule 15).
 */
export class FeatureGates<N extends string> {
  readonly #table: FeatureGateTable<N>;
  readonly #names: readonly N[];
  readonly #values: ReadonlyMap<N, boolean>;
  readonly #explicit: ReadonlyMap<N, boolean>;

  /** Throws `FeatureGateError` for an unknown gate or a setting that a dependency rule contradicts. */
  constructor(table: FeatureGateTable<N>, overrides: FeatureGateOverrides<N> = {}) {
    const names = featureGateNames(table);
    const explicit = new Map<N, boolean>();
    const unknown = Object.keys(overrides).filter((name) => !isGateOf(table, name));
    if (unknown.length > 0) {
      throw new FeatureGateError(
        unknown.map((name) => ({ kind: 'unknown-gate', message: `unknown feature gate ${JSON.stringify(name)}` })),
        names,
      );
    }
    for (const name of names) {
      const value = overrides[name];
      if (value !== undefined) {
        explicit.set(name, value);
      }
    }
    const values = new Map<N, boolean>(names.map((name) => [name, explicit.get(name) ?? table.gates[name].default]));
    const conflicts = applyFeatureGateDependencies(table.dependencies, values, explicit);
    if (conflicts.length > 0) {
      throw new FeatureGateError(conflicts, names);
    }
    this.#table = table;
    this.#names = names;
    this.#values = values;
    this.#explicit = explicit;
  }

  /** The gates the user set to true explicitly (not by default, not implied by a dependency rule), sorted. */
  explicitlyEnabled(): readonly N[] {
    return this.#names.filter((name) => this.#explicit.get(name) === true);
  }

  /** Whether `gate` is on. */
  enabled(gate: N): boolean {
    const value = this.#values.get(gate);
    if (value === undefined) {
      // Only reachable from untyped callers; a typo must not silently read as "off".
      throw new FeatureGateError(
        [{ kind: 'unknown-gate', message: `unknown feature gate ${JSON.stringify(gate)}` }],
        this.#names,
      );
    }
    return value;
  }

  /** Every gate with its value, sorted by name. */
  entries(): readonly (readonly [N, boolean])[] {
    return this.#names.map((name) => [name, this.enabled(name)] as const);
  }

  /**
   * The canonical flag value: the gates that differ from their defaults, sorted, as `A=true,B=false`
   * (empty when all are at their defaults). Parsing `gates.toString()` gives equal gates.
   */
  toString(): string {
    return this.entries()
      .filter(([name, value]) => value !== this.#table.gates[name].default)
      .map(([name, value]) => `${name}=${String(value)}`)
      .join(',');
  }
}
