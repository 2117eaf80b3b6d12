/**
 * The validating admission handler of a workload kind: the rules that compare the old and new object
 * (InPlaceOnly), then the dry runs of what the workload would create, when that changed. Every
 * rejection names the field and the reason in the API server's words; what cannot even be read is
 * rejected with a message saying so, and nothing in a request can make the handler throw.
 */
import { allowedResponse, deniedResponse } from '@kruise-ts/webhook';
import type { AdmissionHandler, AdmissionRequest, AdmissionResponse } from '@kruise-ts/webhook';

import { formatFieldErrors } from './field-error.ts';
import type { FieldError } from './field-error.ts';
import type { TemplateValidator, ValidationTarget } from './template-validator.ts';
import { digestOf } from './verdict-cache.ts';

/** A workload object as the handler reads it, or why it cannot be read. */
export type ParsedWorkload<W> =
  { readonly ok: true; readonly value: W } | { readonly ok: false; readonly message: string };

/** How one kind is validated. */
export interface WorkloadValidation<W> {
  /** `CloneSet`, as in the messages (`CloneSet "web" is invalid: ...`). */
  readonly kind: string;
  readonly parse: (object: unknown) => ParsedWorkload<W>;
  /** What the workload would create; may throw on a template that cannot be built into a pod. */
  readonly target: (workload: W) => ValidationTarget;
  /** The parts the dry run depends on: an update that leaves them equal is not dry-run again. */
  readonly dryRunInputs: (workload: W) => unknown;
  /** Rules between the old and the new object, on updates. */
  readonly updateRules?: ((oldWorkload: W, newWorkload: W) => readonly FieldError[]) | undefined;
}

/** Kubernetes shows warnings of up to 256 characters; longer ones are cut with an ellipsis here. */
const MAX_WARNING = 250;

function shortWarning(text: string): string {
  return text.length <= MAX_WARNING ? text : `${text.slice(0, MAX_WARNING - 3)}...`;
}

function subjectOf(kind: string, request: AdmissionRequest): string {
  return `${kind} ${JSON.stringify(request.name ?? '')}`;
}

function unreadable(kind: string, request: AdmissionRequest, message: string): AdmissionResponse {
  return deniedResponse(`${subjectOf(kind, request)} cannot be read: ${message}`, { code: 400, reason: 'BadRequest' });
}

interface Findings {
  readonly errors: FieldError[];
  readonly warnings: string[];
}

async function dryRunFindings<W>(
  check: { validation: WorkloadValidation<W>; validator: TemplateValidator },
  workload: W,
  signal: AbortSignal,
): Promise<Findings> {
  const { validation, validator } = check;
  let target: ValidationTarget;
  try {
    target = validation.target(workload);
  } catch (error) {
    // A stack overflow (JSON nested thousands deep) says nothing useful to the user in its own words.
    const message =
      error instanceof RangeError ? 'it is nested too deeply' : error instanceof Error ? error.message : String(error);
    return {
      errors: [
        {
          field: 'spec.template',
          reason: 'FieldValueInvalid',
          message: `Invalid value: the pod template cannot be built into a pod: ${message}`,
        },
      ],
      warnings: [],
    };
  }
  const verdict = await validator.validate(target, signal);
  if (verdict.kind === 'unknown') {
    return { errors: [], warnings: [`not validated by a dry run: ${verdict.message}`] };
  }
  return { errors: verdict.kind === 'invalid' ? [...verdict.errors] : [], warnings: [...verdict.warnings] };
}

function changedForDryRun<W>(validation: WorkloadValidation<W>, oldWorkload: W | undefined, workload: W): boolean {
  return (
    oldWorkload === undefined ||
    digestOf(validation.dryRunInputs(oldWorkload)) !== digestOf(validation.dryRunInputs(workload))
  );
}

/** The errors and warnings of a CREATE or UPDATE whose object could be read. */
async function findingsOf<W>(
  check: { validation: WorkloadValidation<W>; validator: TemplateValidator },
  objects: { old: W | undefined; current: W },
  signal: AbortSignal,
): Promise<Findings> {
  const { validation } = check;
  const errors: FieldError[] =
    objects.old === undefined ? [] : [...(validation.updateRules?.(objects.old, objects.current) ?? [])];
  if (!changedForDryRun(validation, objects.old, objects.current)) {
    return { errors, warnings: [] };
  }
  const found = await dryRunFindings(check, objects.current, signal);
  return { errors: [...errors, ...found.errors], warnings: found.warnings.map(shortWarning) };
}

/** The handler for one kind; CREATE and UPDATE are validated, every other operation is allowed. */
export function validationHandler<W>(
  validation: WorkloadValidation<W>,
  validator: TemplateValidator,
): AdmissionHandler {
  return async (request, signal) => {
    if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') {
      return allowedResponse();
    }
    const parsed = validation.parse(request.object);
    if (!parsed.ok) {
      return unreadable(validation.kind, request, parsed.message);
    }
    const old = request.operation === 'UPDATE' ? validation.parse(request.oldObject) : undefined;
    const { errors, warnings } = await findingsOf(
      { validation, validator },
      { old: old?.ok === true ? old.value : undefined, current: parsed.value },
      signal,
    );
    if (errors.length > 0) {
      return deniedResponse(formatFieldErrors(subjectOf(validation.kind, request), errors), {
        code: 422,
        reason: 'Invalid',
        warnings,
      });
    }
    return allowedResponse({ warnings });
  };
}
