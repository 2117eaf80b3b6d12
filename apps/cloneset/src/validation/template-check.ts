/**
 * The controller's template check (for when the webhook was skipped): before pods are created from a
 * template the API server has not judged through the webhook, dry-run it once and report an invalid
 * one instead of creating pods that would each be refused (@kruise-ts/template-validation).
 */
import type { CloneSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { checkTemplate, mayCreatePods } from '@kruise-ts/template-validation';
import type { TemplateCheckContext } from '@kruise-ts/template-validation';

import { cloneSetValidationTarget } from './validation-target.ts';
import type { PodShapeOptions } from './validation-target.ts';

/** The message to report when the template is invalid; undefined when it is valid, not checked now, or could not be checked. */
export async function templateProblem(
  cs: DeepReadonly<CloneSet>,
  context: TemplateCheckContext & { readonly shape: PodShapeOptions },
): Promise<string | undefined> {
  if (!mayCreatePods(cs)) {
    return undefined;
  }
  return checkTemplate(context, {
    subject: `CloneSet ${JSON.stringify(cs.metadata.name ?? '')}`,
    target: () => cloneSetValidationTarget(cs, context.shape),
    source: cs,
  });
}
