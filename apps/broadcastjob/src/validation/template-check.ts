/**
 * The controller's template check (for when the webhook was skipped): before a job creates pods, its
 * template is dry-run (once: the verdict is cached) and an invalid one is reported instead of pods
 * that would each be refused (@kruise-ts/template-validation).
 */
import type { BroadcastJob } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { checkTemplate } from '@kruise-ts/template-validation';
import type { TemplateCheckContext } from '@kruise-ts/template-validation';

import { broadcastJobValidationTarget } from './validation-target.ts';
import type { PodShapeOptions } from './validation-target.ts';

/** The message to report when the template is invalid; undefined when it is valid, or could not be checked. */
export async function templateProblem(
  job: DeepReadonly<BroadcastJob>,
  context: TemplateCheckContext & { readonly shape: PodShapeOptions },
): Promise<string | undefined> {
  return checkTemplate(context, {
    subject: `BroadcastJob ${JSON.stringify(job.metadata.name ?? '')}`,
    target: () => broadcastJobValidationTarget(job, context.shape),
    source: job,
  });
}
