/** What went wrong with one item of a `--feature-gates` value. */
export interface FeatureGateProblem {
  /** `syntax`: not `Name=value`; `unknown-gate`; `bad-value`: not exactly `true`/`false`; `conflict`: contradicts a dependency rule. */
  readonly kind: 'syntax' | 'unknown-gate' | 'bad-value' | 'conflict';
  readonly message: string;
}

/** Appends the list of known gates to problems a typo can cause, so the message alone says how to fix it. */
export function describeFeatureGateProblem(problem: FeatureGateProblem, known: readonly string[]): string {
  return problem.kind === 'conflict' ? problem.message : `${problem.message}; known gates: ${known.join(', ')}`;
}

/**
 * Thrown for an invalid feature gate setting. The message names every offending gate or value and,
 * unless the only problems are dependency conflicts, lists the known gates once at the end.
 */
export class FeatureGateError extends Error {
  readonly problems: readonly FeatureGateProblem[];

  /** `known`: the gates of the table the setting was checked against, listed when a typo may be involved. */
  constructor(problems: readonly FeatureGateProblem[], known: readonly string[], input?: string) {
    super(formatProblems(problems, known, input));
    this.name = 'FeatureGateError';
    this.problems = problems;
  }
}

function formatProblems(
  problems: readonly FeatureGateProblem[],
  known: readonly string[],
  input: string | undefined,
): string {
  const subject = input === undefined ? 'invalid feature gates' : `invalid feature gates ${JSON.stringify(input)}`;
  const listed = problems.some((problem) => problem.kind !== 'conflict') ? `; known gates: ${known.join(', ')}` : '';
  return `${subject}: ${problems.map((problem) => problem.message).join('; ')}${listed}`;
}
