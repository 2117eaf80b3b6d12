/**
 * The conditions that end `rollout status` with exit code 1: a rollout that cannot finish, said in
 * the condition's own words. A condition that may clear by itself (a pod creation refused by a quota)
 * is not one of them; kubectl waits through those too.
 */
import type { StatusCondition } from './status-subject.ts';

const isTrue = (condition: StatusCondition): boolean => condition.status === 'True';

interface FailureRule {
  readonly matches: (condition: StatusCondition) => boolean;
  readonly says: string;
}

const RULES: readonly FailureRule[] = [
  {
    matches: (c) => c.type === 'Progressing' && c.status === 'False' && c.reason === 'ProgressDeadlineExceeded',
    says: 'exceeded its progress deadline',
  },
  // CloneSet's and the Advanced StatefulSet's failed updates.
  {
    matches: (c) => (c.type === 'FailedUpdate' || c.type === 'FailedUpdatePod') && isTrue(c),
    says: 'failed to update its pods',
  },
  // A template the API server refuses: no pod of it will ever be created (issue 20's controller check).
  { matches: (c) => c.reason === 'InvalidTemplate' && isTrue(c), says: 'cannot create pods from its template' },
  { matches: (c) => c.type === 'InvalidSpec' && isTrue(c), says: 'has a spec that cannot be carried out' },
  // BroadcastJob.
  { matches: (c) => c.type === 'Failed' && isTrue(c), says: 'failed' },
];

/** `exceeded its progress deadline: <message>` for the first failing condition, else undefined. */
export function failureOf(conditions: readonly StatusCondition[] | undefined): string | undefined {
  for (const rule of RULES) {
    const condition = conditions?.find(rule.matches);
    if (condition !== undefined) {
      return condition.message === undefined || condition.message === ''
        ? rule.says
        : `${rule.says}: ${condition.message}`;
    }
  }
  return undefined;
}
