/**
 * How the BroadcastJob webhook validates: the object read with the API schema (defaults applied, as
 * the controller reads it) and the dry run of the pod it would create (again only when the template
 * or the name changed). No update rule: OpenKruise's webhook does not enforce one for BroadcastJob.
 */
import type { BroadcastJob } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { admissionParser } from '@kruise-ts/template-validation';
import type { WorkloadValidation } from '@kruise-ts/template-validation';

import { parseBroadcastJob } from '../broadcastjob-resource.ts';
import { broadcastJobValidationTarget } from './validation-target.ts';
import type { PodShapeOptions } from './validation-target.ts';

const parse = admissionParser<BroadcastJob>('BroadcastJob', parseBroadcastJob);

/** The BroadcastJob kind's validation for the admission handler. */
export function broadcastJobValidation(options: PodShapeOptions): WorkloadValidation<DeepReadonly<BroadcastJob>> {
  return {
    kind: 'BroadcastJob',
    parse,
    target: (job) => broadcastJobValidationTarget(job, options),
    dryRunInputs: (job) => [job.metadata.name, job.spec.template],
  };
}
