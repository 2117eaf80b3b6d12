/**
 * The two ways a command refuses. Both are raised before anything is written whenever the input
 * allows it, so a refused command leaves the cluster as it was.
 */

/** The command line itself is wrong (exit 2): an unknown resource type, a malformed argument. */
export class UsageError extends Error {
  /** One line telling the user what to run instead or where to look. */
  readonly hint: string | undefined;

  constructor(message: string, hint?: string) {
    super(message);
    this.name = 'UsageError';
    this.hint = hint;
  }
}

/** The command line is fine but the cluster's state forbids the change (exit 1). */
export class PreconditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PreconditionError';
  }
}
