/**
 * The controller's template check (for when the webhook was skipped): before pods are created from a
 * template the API server has not judged through the webhook, dry-run it once and report an invalid
 * one instead of creating pods that would each be refused (@kruise-ts/template-validation).
 */
import type { StatefulSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { checkTemplate, mayCreatePods } from '@kruise-ts/template-validation';
import type { TemplateCheckContext } from '@kruise-ts/template-validation';

import { statefulSetValidationTarget } from './validation-target.ts';
import type { PodShapeOptions } from './validation-target.ts';

/** Whether pods may be created from the set's template soon (see `mayCreatePods`). */
export function needsTemplateCheck(set: DeepReadonly<StatefulSet>): boolean {
  return mayCreatePods(set);
}

/** The message to report when the template is invalid; undefined when it is valid, not checked now, or could not be checked. */
export async function templateProblem(
  set: DeepReadonly<StatefulSet>,
  context: TemplateCheckContext & { readonly shape: PodShapeOptions },
): Promise<string | undefined> {
  if (!needsTemplateCheck(set)) {
    return undefined;
  }
  return checkTemplate(context, {
    subject: `StatefulSet ${JSON.stringify(set.metadata.name ?? '')}`,
    target: () => statefulSetValidationTarget(set, context.shape),
    source: set,
  });
}
