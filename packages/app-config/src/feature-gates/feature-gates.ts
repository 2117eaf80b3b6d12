import type { z } from 'zod';

import {
  FeatureGates as TableFeatureGates,
  featureGatesSchema as featureGatesSchemaOf,
  parseFeatureGates as parseFeatureGatesOf,
} from '@kruise-ts/controller-runtime';
import type { FeatureGateOverrides, FeatureGateParser, FeatureGateTable } from '@kruise-ts/controller-runtime';

import { FEATURE_GATE_DEPENDENCIES } from './gate-dependencies.ts';
import { KNOWN_FEATURE_GATES } from './known-gates.ts';
import type { FeatureGateName } from './known-gates.ts';

/** kruise-ts's gates: OpenKruise's and one per app, with OpenKruise's dependency rules. */
export const KRUISE_FEATURE_GATES: FeatureGateTable<FeatureGateName> = {
  gates: KNOWN_FEATURE_GATES,
  dependencies: FEATURE_GATE_DEPENDENCIES,
};

/**
 * kruise-ts's feature gates: the defaults of `KNOWN_FEATURE_GATES`, overlaid with explicit settings,
 * then OpenKruise's dependency rules. A class of its own (not the runtime's, given the table each
 * time) so that the apps and their tests write `new FeatureGates({...})` and name one type.
 *
 * @example
 * const gates = new FeatureGates({ PreDownloadImageForInPlaceUpdate: true });
 * gates.enabled('ImagePullJobGate'); // true: forced on by the pre-download gate
 * gates.toString(); // 'ImagePullJobGate=true,PreDownloadImageForInPlaceUpdate=true'
 */
export class FeatureGates extends TableFeatureGates<FeatureGateName> {
  /** Throws `FeatureGateError` for an unknown gate or a setting that a dependency rule contradicts. */
  constructor(overrides: FeatureGateOverrides<FeatureGateName> = {}) {
    super(KRUISE_FEATURE_GATES, overrides);
  }
}

const PARSER: FeatureGateParser<FeatureGateName, FeatureGates> = {
  table: KRUISE_FEATURE_GATES,
  create: (overrides) => new FeatureGates(overrides),
};

/**
 * Parses a `--feature-gates` value (`A=true,B=false`) against kruise-ts's gates (the runtime's
 * `parseFeatureGates` says how).
 *
 * @throws FeatureGateError naming each bad gate or value and listing the known gates.
 */
export function parseFeatureGates(flag: string): FeatureGates {
  return parseFeatureGatesOf(flag, PARSER);
}

/** The zod form of `parseFeatureGates`: a string in, `FeatureGates` out, one issue per problem. */
export const featureGatesSchema: z.ZodType<FeatureGates, string> = featureGatesSchemaOf(PARSER);
