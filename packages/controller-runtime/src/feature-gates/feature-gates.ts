import { FeatureGateError } from './feature-gate-error.ts';
import { applyFeatureGateDependencies } from './gate-dependencies.ts';
import { FEATURE_GATE_NAMES, KNOWN_FEATURE_GATES, isFeatureGateName } from './known-gates.ts';
import type { FeatureGateName } from './known-gates.ts';

/** Explicit settings, as a user writes them on the command line or in a test. */
export type FeatureGateOverrides = Partial<Readonly<Record<FeatureGateName, boolean>>>;

/**
 * An immutable, validated set of feature gate values: the defaults, overlaid with explicit settings,
 * then OpenKruise's dependency rules. Built once in `main` (from `--feature-gates`) and passed down
 * as an option; libraries never read a global gate (style guide rule 15).
 *
 * @example
 * const gates = new FeatureGates({ PreDownloadImageForInPlaceUpdate: true });
 * gates.enabled('ImagePullJobGate'); // true: forced on by the pre-download gate
 * gates.toString(); // 'ImagePullJobGate=true,PreDownloadImageForInPlaceUpdate=true'
 */
export class FeatureGates {
  readonly #values: ReadonlyMap<FeatureGateName, boolean>;
  readonly #explicit: ReadonlyMap<FeatureGateName, boolean>;

  /** Throws `FeatureGateError` for an unknown gate or a setting that a dependency rule contradicts. */
  constructor(overrides: FeatureGateOverrides = {}) {
    const explicit = new Map<FeatureGateName, boolean>();
    const unknown = Object.keys(overrides).filter((name) => !isFeatureGateName(name));
    if (unknown.length > 0) {
      throw new FeatureGateError(
        unknown.map((name) => ({ kind: 'unknown-gate', message: `unknown feature gate ${JSON.stringify(name)}` })),
      );
    }
    for (const name of FEATURE_GATE_NAMES) {
      const value = overrides[name];
      if (value !== undefined) {
        explicit.set(name, value);
      }
    }
    const values = new Map<FeatureGateName, boolean>(
      FEATURE_GATE_NAMES.map((name) => [name, explicit.get(name) ?? KNOWN_FEATURE_GATES[name].default]),
    );
    const conflicts = applyFeatureGateDependencies(values, explicit);
    if (conflicts.length > 0) {
      throw new FeatureGateError(conflicts);
    }
    this.#values = values;
    this.#explicit = explicit;
  }

  /** The gates the user set to true explicitly (not by default, not implied by a dependency rule), sorted. */
  explicitlyEnabled(): readonly FeatureGateName[] {
    return FEATURE_GATE_NAMES.filter((name) => this.#explicit.get(name) === true);
  }

  /** Whether `gate` is on. */
  enabled(gate: FeatureGateName): boolean {
    const value = this.#values.get(gate);
    if (value === undefined) {
      // Only reachable from untyped callers; a typo must not silently read as "off".
      throw new FeatureGateError([{ kind: 'unknown-gate', message: `unknown feature gate ${JSON.stringify(gate)}` }]);
    }
    return value;
  }

  /** Every gate with its value, sorted by name. */
  entries(): readonly (readonly [FeatureGateName, boolean])[] {
    return FEATURE_GATE_NAMES.map((name) => [name, this.enabled(name)] as const);
  }

  /**
   * The canonical flag value: the gates that differ from their defaults, sorted, as `A=true,B=false`
   * (empty when all are at their defaults). `parseFeatureGates(gates.toString())` gives equal gates.
   */
  toString(): string {
    return this.entries()
      .filter(([name, value]) => value !== KNOWN_FEATURE_GATES[name].default)
      .map(([name, value]) => `${name}=${String(value)}`)
      .join(',');
  }
}
