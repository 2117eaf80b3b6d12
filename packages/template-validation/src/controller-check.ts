/**
 * The controllers' side of template validation: when the webhook was skipped (down, `failurePolicy:
 * Ignore`, not installed), a controller asks the same question before it creates the first pod of a
 * template, and reports the answer instead of creating pods that the API server would refuse one by
 * one. The validators of a process are shared (one cache): in the all-in-one process the webhook's
 * verdict on a create serves the controller's check that follows.
 */
import type { DeepReadonly, Manager } from '@kruise-ts/controller-runtime';
import type { Logger } from 'pino';

import { apiDryRun } from './dry-run.ts';
import { formatFieldErrors } from './field-error.ts';
import { TemplateValidator } from './template-validator.ts';
import type { TemplateVerdict, ValidationTarget } from './template-validator.ts';

const validators = new WeakMap<Manager, TemplateValidator>();

/** The process's validator for a manager (its client does the dry runs), made on first use. */
export function templateValidatorFor(manager: Manager): TemplateValidator {
  const known = validators.get(manager);
  if (known !== undefined) {
    return known;
  }
  const validator = new TemplateValidator({ dryRun: apiDryRun(manager.client) });
  validators.set(manager, validator);
  return validator;
}

/** The condition and Event message for an invalid verdict (`CloneSet "web" is invalid: spec.template...`); undefined otherwise. */
export function templateProblemMessage(subject: string, verdict: TemplateVerdict): string | undefined {
  if (verdict.kind !== 'invalid') {
    return undefined;
  }
  return `${formatFieldErrors(subject, verdict.errors)}; no pod is created from this template until it is fixed`;
}

/** What a controller's template check runs with. */
export interface TemplateCheckContext {
  readonly validator: Pick<TemplateValidator, 'validate'>;
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/**
 * The controller's check of one template: its dry run (usually from the cache), and the message to
 * report when it is invalid; undefined when it is valid or could not be checked. A target that cannot
 * be built, or a dry run the API server could not answer, never stops the controller: it goes on as
 * it did before this check, and the log says why.
 */
export async function checkTemplate(
  context: TemplateCheckContext,
  check: {
    readonly subject: string;
    readonly target: () => ValidationTarget;
    /**
     * The object the target is built from, as the informer cache holds it (never mutated): its target
     * is built once, and the validator hashes that target once. A rollout reconciles one workload
     * object hundreds of times between its status writes.
     */
    readonly source?: object | undefined;
  },
): Promise<string | undefined> {
  let target: ValidationTarget;
  try {
    target = targetOf(check);
  } catch (error) {
    context.logger.warn({ err: error }, 'The pod template could not be built for its dry run; not checked');
    return undefined;
  }
  const verdict = await context.validator.validate(target, context.signal);
  if (verdict.kind === 'unknown') {
    context.logger.warn(
      { reason: verdict.message },
      'The pod template could not be checked by a dry run; going on without the check',
    );
  }
  return templateProblemMessage(check.subject, verdict);
}

const targetsBySource = new WeakMap<object, ValidationTarget>();

function targetOf(check: {
  readonly target: () => ValidationTarget;
  readonly source?: object | undefined;
}): ValidationTarget {
  if (check.source === undefined) {
    return check.target();
  }
  let target = targetsBySource.get(check.source);
  if (target === undefined) {
    target = check.target();
    targetsBySource.set(check.source, target);
  }
  return target;
}

/** The parts of a replicated workload (CloneSet, StatefulSet) that say whether pods may be created soon. */
export interface ReplicatedWorkload {
  readonly metadata: { readonly generation?: number | undefined; readonly deletionTimestamp?: string | undefined };
  readonly spec: { readonly replicas?: number | undefined };
  readonly status?:
    | {
        readonly observedGeneration?: number | undefined;
        readonly replicas: number;
        readonly updatedReplicas?: number | undefined;
      }
    | undefined;
}

/**
 * Whether pods may be created from the template soon: the spec changed since the last status (a new
 * workload, a new template, a scale), or fewer pods exist, or are updated, than wanted. A workload at
 * rest costs nothing; one being scaled or rolled out asks the cache, not the API server.
 */
export function mayCreatePods(workload: DeepReadonly<ReplicatedWorkload>): boolean {
  const replicas = workload.spec.replicas ?? 1;
  if (replicas === 0 || workload.metadata.deletionTimestamp !== undefined) {
    return false;
  }
  const { status } = workload;
  if (status === undefined || status.observedGeneration !== workload.metadata.generation) {
    return true;
  }
  return status.replicas < replicas || (status.updatedReplicas ?? 0) < replicas;
}
