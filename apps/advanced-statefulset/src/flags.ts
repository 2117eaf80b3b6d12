import { booleanFlag, countFlag } from '@kruise-ts/controller-runtime';
import type { FeatureGates } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

import type { StatefulSetControllerOptions } from './controller.ts';

/** The controller's own flags, added to the manager's by its main and by the all-in-one launcher. */
export const statefulSetFlagsShape = {
  // OpenKruise's flag: this controller's workers, over --workers (every controller's default).
  'statefulset-workers': countFlag('an integer').pipe(z.number().int()).optional(),
  'statefulset-strip-pod-managed-fields': booleanFlag().default(true),
};

/** The parsed flags the controller options come from. */
export interface StatefulSetFlags {
  readonly 'feature-gates': FeatureGates;
  readonly workers: number;
  readonly 'statefulset-workers'?: number | undefined;
  readonly 'expectation-timeout': number;
  readonly 'statefulset-strip-pod-managed-fields': boolean;
}

/** Controller options from parsed flags. */
export function statefulSetOptionsFromFlags(flags: StatefulSetFlags): StatefulSetControllerOptions {
  return {
    featureGates: flags['feature-gates'],
    workers: flags['statefulset-workers'] ?? flags.workers,
    expectationTimeoutMs: flags['expectation-timeout'],
    stripPodManagedFields: flags['statefulset-strip-pod-managed-fields'],
  };
}
