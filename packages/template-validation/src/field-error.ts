/**
 * One validation error of a workload, in the API server's words and at the workload's field path
 * (`spec.template.spec.containers[0].name: Invalid value: "Web": ...`), as `field.ErrorList` prints it.
 */
export interface FieldError {
  /** The path in the workload, e.g. `spec.template.spec.containers[0].name`. */
  readonly field: string;
  /** A `metav1.CauseType` (`FieldValueInvalid`, `FieldValueRequired`, ...), when the source said. */
  readonly reason?: string | undefined;
  /** What is wrong, without the path (`Invalid value: "Web": a lowercase RFC 1123 label ...`). */
  readonly message: string;
}

/** `field: message`, as Kubernetes prints one error of a list. */
export function formatFieldError(error: FieldError): string {
  return error.field === '' ? error.message : `${error.field}: ${error.message}`;
}

/**
 * The errors as one message, the way the API server words an Invalid answer (`Kind "name" is invalid:
 * [a, b]`, a single error without brackets); duplicates are dropped, the order is kept.
 */
export function formatFieldErrors(subject: string, errors: readonly FieldError[]): string {
  const lines = [...new Set(errors.map(formatFieldError))];
  const [only] = lines;
  const body = lines.length === 1 && only !== undefined ? only : `[${lines.join(', ')}]`;
  return `${subject} is invalid: ${body}`;
}
