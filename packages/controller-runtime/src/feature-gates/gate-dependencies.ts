import type { FeatureGateProblem } from './feature-gate-error.ts';

/** A dependent-default rule (as OpenKruise's): when `when.gate` is `when.enabled`, every gate in `force.gates` becomes `force.enabled`. */
export interface FeatureGateDependency<N extends string> {
  readonly when: { readonly gate: N; readonly enabled: boolean };
  readonly force: { readonly enabled: boolean; readonly gates: readonly N[] };
}

/**
 * Applies the dependency rules, in their order, to `values` (in place) and reports every gate whose explicit setting
 * a rule overrode. OpenKruise silently overrides; we refuse, because a flag that says
 * `WorkloadSpread=true` but leaves WorkloadSpread off is a misconfiguration the operator should see.
 */
export function applyFeatureGateDependencies<N extends string>(
  rules: readonly FeatureGateDependency<N>[],
  values: Map<N, boolean>,
  explicit: ReadonlyMap<N, boolean>,
): FeatureGateProblem[] {
  const forcedBy = new Map<N, FeatureGateDependency<N>>();
  for (const rule of rules) {
    if (values.get(rule.when.gate) !== rule.when.enabled) {
      continue;
    }
    for (const gate of rule.force.gates) {
      values.set(gate, rule.force.enabled);
      forcedBy.set(gate, rule);
    }
  }
  const problems: FeatureGateProblem[] = [];
  for (const [gate, rule] of forcedBy) {
    const wanted = explicit.get(gate);
    if (wanted !== undefined && wanted !== values.get(gate)) {
      problems.push({ kind: 'conflict', message: conflictMessage(gate, wanted, rule) });
    }
  }
  return problems;
}

function conflictMessage<N extends string>(gate: N, wanted: boolean, rule: FeatureGateDependency<N>): string {
  return (
    `feature gate "${gate}" is set to ${String(wanted)}, but "${rule.when.gate}=${String(rule.when.enabled)}" ` +
    `forces it to ${String(rule.force.enabled)}`
  );
}
