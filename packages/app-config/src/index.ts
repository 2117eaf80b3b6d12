/**
 * @kruise-ts/app-config: what configures the kruise-ts apps rather than any controller runtime.
 *
 * STOP: this file is the public API of @kruise-ts/app-config. Add explicit named exports only (no `export *`).
 */

// An app's main.
export { loadKubeConfigOrExit, runAppMain } from './app-main.ts';
export type { AppMainOptions } from './app-main.ts';

// kruise-ts's feature gates: OpenKruise's and one per app.
export {
  FeatureGates,
  featureGatesSchema,
  KRUISE_FEATURE_GATES,
  parseFeatureGates,
} from './feature-gates/feature-gates.ts';
export { FEATURE_GATE_DEPENDENCIES } from './feature-gates/gate-dependencies.ts';
export { FEATURE_GATE_NAMES, KNOWN_FEATURE_GATES } from './feature-gates/known-gates.ts';
export type { FeatureGateName } from './feature-gates/known-gates.ts';

// OpenKruise's kruise-manager flags as kruise-ts accepts them.
export { managerFlagsSchema, parseManagerFlags } from './manager-flags.ts';
export type { ManagerFlags } from './manager-flags.ts';
export { OPENKRUISE_MANAGER_FLAGS } from './openkruise-flags.ts';
export { logStartupWarnings } from './startup-warnings.ts';

// What every workload controller's options take from the manager's flags.
export { workersFlag, workloadControllerOptions } from './workload-controller-flags.ts';
export type { WorkloadControllerFlags } from './workload-controller-flags.ts';
