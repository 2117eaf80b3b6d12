import { workersFlag, workloadControllerOptions } from '@kruise-ts/app-config';
import type { WorkloadControllerFlags } from '@kruise-ts/app-config';
import { booleanFlag, goDurationSchema } from '@kruise-ts/controller-runtime';

import type { BroadcastJobControllerOptions } from './controller.ts';

/** The app's own flags, added to the manager's by its main and by the all-in-one launcher. */
export const broadcastJobFlagsShape = {
  // OpenKruise's flags: this controller's workers (over --workers), and how pods are bound to their node.
  'broadcastjob-workers': workersFlag(),
  'assign-bcj-pods-by-scheduler': booleanFlag().default(true),
  // The validating webhook of BroadcastJobs (pod-template validation at admission) on the process's webhook server.
  'broadcastjob-validation-webhook': booleanFlag().default(true),
  // How long a job waits after a change of one of its pods' status before it is reconciled, so that the
  // changes of many pods cost one status write (kube-controller-manager's Job controller: 1s, not a flag
  // there). 0 reconciles on every change, as OpenKruise does.
  'broadcastjob-pod-update-batch-period': goDurationSchema.default(1_000),
};

/** The parsed flags the controller options come from. */
export interface BroadcastJobFlags extends WorkloadControllerFlags {
  readonly 'broadcastjob-workers'?: number | undefined;
  readonly 'assign-bcj-pods-by-scheduler': boolean;
  readonly 'broadcastjob-validation-webhook': boolean;
  readonly 'broadcastjob-pod-update-batch-period': number;
}

/** Controller options from parsed flags. */
export function broadcastJobOptionsFromFlags(flags: BroadcastJobFlags): BroadcastJobControllerOptions {
  const common = workloadControllerOptions(flags, flags['broadcastjob-workers']);
  return {
    workers: common.workers,
    expectationTimeoutMs: common.expectationTimeoutMs,
    assignPodsByScheduler: flags['assign-bcj-pods-by-scheduler'],
    podUpdateBatchPeriodMs: flags['broadcastjob-pod-update-batch-period'],
  };
}
