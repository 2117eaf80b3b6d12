import type { FeatureGates } from './feature-gates.ts';
import { KNOWN_FEATURE_GATES } from './known-gates.ts';

/**
 * One warning per gate the user turned on that kruise-ts accepts but does not implement: the gate
 * parses (so an OpenKruise `--feature-gates` value keeps working) but changes nothing, and the user
 * should hear so once at start-up instead of finding out from missing behaviour. Gates that are on
 * by default or implied by another gate are not the user's doing and are not reported; gates whose
 * behaviour kruise-ts always has (`alwaysOn`) are not either.
 */
export function unimplementedGateWarnings(gates: FeatureGates): string[] {
  return gates.explicitlyEnabled().flatMap((name) => {
    const spec = KNOWN_FEATURE_GATES[name];
    if (spec.implemented || spec.alwaysOn === true) {
      return [];
    }
    return spec.origin === 'kruise-ts'
      ? [`feature gate ${name}=true has no effect: the ${name} app does not exist yet`]
      : [
          `feature gate ${name}=true is accepted for compatibility with OpenKruise but has no effect: kruise-ts does not implement it`,
        ];
  });
}
