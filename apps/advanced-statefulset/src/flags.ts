import { workersFlag, workloadControllerOptions } from '@kruise-ts/app-config';
import type { WorkloadControllerFlags } from '@kruise-ts/app-config';
import { booleanFlag } from '@kruise-ts/controller-runtime';

import type { StatefulSetControllerOptions } from './controller.ts';

/** The controller's own flags, added to the manager's by its main and by the all-in-one launcher. */
export const statefulSetFlagsShape = {
  // OpenKruise's flag: this controller's workers, over --workers (every controller's default).
  'statefulset-workers': workersFlag(),
  'statefulset-strip-pod-managed-fields': booleanFlag().default(true),
  // The validating webhook of Advanced StatefulSets (pod-template validation at admission) on the process's webhook server.
  'statefulset-validation-webhook': booleanFlag().default(true),
};

/** The parsed flags the controller options come from. */
export interface StatefulSetFlags extends WorkloadControllerFlags {
  readonly 'statefulset-workers'?: number | undefined;
  readonly 'statefulset-strip-pod-managed-fields': boolean;
  readonly 'statefulset-validation-webhook': boolean;
}

/** Controller options from parsed flags. */
export function statefulSetOptionsFromFlags(flags: StatefulSetFlags): StatefulSetControllerOptions {
  return {
    ...workloadControllerOptions(flags, flags['statefulset-workers']),
    stripPodManagedFields: flags['statefulset-strip-pod-managed-fields'],
  };
}
