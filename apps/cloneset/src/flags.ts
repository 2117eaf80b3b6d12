import { workersFlag, workloadControllerOptions } from '@kruise-ts/app-config';
import type { WorkloadControllerFlags } from '@kruise-ts/app-config';
import { booleanFlag } from '@kruise-ts/controller-runtime';

import type { CloneSetControllerOptions } from './controller.ts';

/** The CloneSet controller's own flags, added to the manager's by its main and by the all-in-one launcher. */
export const cloneSetFlagsShape = {
  // OpenKruise's flag: the CloneSet controller's workers, over --workers (every controller's default).
  'cloneset-workers': workersFlag(),
  'cloneset-scaling-exclude-preparing-delete': booleanFlag().default(false),
  'cloneset-strip-pod-managed-fields': booleanFlag().default(true),
  'cloneset-recreate-without-readiness-gates': booleanFlag().default(false),
  // The validating webhook of CloneSets (pod-template validation at admission) on the process's webhook server.
  'cloneset-validation-webhook': booleanFlag().default(true),
};

/** The parsed flags the controller options come from. */
export interface CloneSetFlags extends WorkloadControllerFlags {
  readonly 'cloneset-workers'?: number | undefined;
  readonly 'cloneset-scaling-exclude-preparing-delete': boolean;
  readonly 'cloneset-strip-pod-managed-fields': boolean;
  readonly 'cloneset-recreate-without-readiness-gates': boolean;
  readonly 'cloneset-validation-webhook': boolean;
}

/** Controller options from parsed flags. */
export function cloneSetOptionsFromFlags(flags: CloneSetFlags): CloneSetControllerOptions {
  return {
    ...workloadControllerOptions(flags, flags['cloneset-workers']),
    scalingExcludePreparingDelete: flags['cloneset-scaling-exclude-preparing-delete'],
    stripPodManagedFields: flags['cloneset-strip-pod-managed-fields'],
    reCreateWithoutReadinessGates: flags['cloneset-recreate-without-readiness-gates'],
  };
}
