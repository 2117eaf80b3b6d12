/**
 * What every workload controller's options take from the manager's flags, so that each app's flags
 * file names only its own: the feature gates, the workers (OpenKruise's `--<controller>-workers` over
 * `--workers`) and the expectation timeout.
 */
import { z } from 'zod';

import { countFlag } from '@kruise-ts/controller-runtime';

import type { FeatureGates } from './feature-gates/feature-gates.ts';

/** A controller's own workers flag (`--cloneset-workers`, ...): an integer, optional. */
export function workersFlag(): z.ZodOptional<
  z.ZodPipe<z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>, z.ZodNumber>
> {
  return countFlag('an integer').pipe(z.number().int()).optional();
}

/** The manager flags a workload controller's options start from. */
export interface WorkloadControllerFlags {
  readonly 'feature-gates': FeatureGates;
  readonly workers: number;
  readonly 'expectation-timeout': number;
}

/** The options every workload controller has. */
export interface WorkloadControllerOptions {
  readonly featureGates: FeatureGates;
  readonly workers: number;
  readonly expectationTimeoutMs: number;
}

/** The common options; `ownWorkers` (the controller's own workers flag) wins over `--workers`. */
export function workloadControllerOptions(
  flags: WorkloadControllerFlags,
  ownWorkers: number | undefined,
): WorkloadControllerOptions {
  return {
    featureGates: flags['feature-gates'],
    workers: ownWorkers ?? flags.workers,
    expectationTimeoutMs: flags['expectation-timeout'],
  };
}
