import { describe, expect, it } from 'vitest';

import type { BroadcastJob } from '@kruise-ts/api';
import { MISSING_IMAGE_VERDICT, scriptedValidator } from '@kruise-ts/template-validation/testing';

import { broadcastJob, reconcileFixture } from '../test/fixtures/reconcile-fixture.ts';
import type { ReconcileFixture } from '../test/fixtures/reconcile-fixture.ts';

type Condition = NonNullable<NonNullable<BroadcastJob['status']>['conditions']>[number];

const MESSAGE =
  'BroadcastJob "job" is invalid: spec.template.spec.containers[0].image: Required value; no pod is created from this template until it is fixed';

function condition(fixture: ReconcileFixture, type: string): Condition | undefined {
  return fixture.stored().status?.conditions?.find((candidate) => candidate.type === type);
}

describe('BroadcastJobReconciler template check (over the in-memory API)', () => {
  it('creates no pod from a template the API server refuses, and says so in an Event and a condition', async () => {
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })], {
      templateValidator: scriptedValidator(MISSING_IMAGE_VERDICT),
    });
    await fixture.reconcile();
    expect(fixture.pods()).toEqual([]);
    expect(fixture.recorder.events).toMatchObject([{ type: 'Warning', reason: 'FailedCreate', message: MESSAGE }]);
    expect(condition(fixture, 'FailedCreatePod')).toMatchObject({
      status: 'True',
      reason: 'InvalidTemplate',
      message: MESSAGE,
    });
    const { status } = fixture.stored();
    expect(status).toMatchObject({ phase: 'running', active: 0, desired: 2 });
    expect(condition(fixture, 'Failed')).toBeUndefined();
  });

  it('reports the same problem once and leaves the status as it is', async () => {
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })], {
      templateValidator: scriptedValidator(MISSING_IMAGE_VERDICT),
    });
    await fixture.reconcile();
    fixture.fake.clearActions();
    await fixture.reconcile();
    expect(fixture.recorder.reasons()).toEqual(['FailedCreate']);
    expect(fixture.fake.writes()).toEqual([]);
  });

  it('creates the pods and clears the condition once the template is valid', async () => {
    const validator = scriptedValidator(MISSING_IMAGE_VERDICT);
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })], { templateValidator: validator });
    await fixture.reconcile();
    validator.verdict = { kind: 'valid', warnings: [] };
    await fixture.reconcile();
    expect(fixture.pods()).toHaveLength(2);
    expect(condition(fixture, 'FailedCreatePod')).toBeUndefined();
  });

  it('checks the pod the controller would create, once per round that creates pods', async () => {
    const validator = scriptedValidator({ kind: 'valid', warnings: [] });
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })], { templateValidator: validator });
    await fixture.reconcile();
    expect(validator.targets.map((target) => target.pod.metadata?.generateName)).toEqual(['job-']);
    // Every node has its pod: nothing to create, nothing to check.
    await fixture.reconcile();
    expect(validator.targets).toHaveLength(1);
  });

  it('goes on without the check when the dry run could not answer', async () => {
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })], {
      templateValidator: scriptedValidator({ kind: 'unknown', message: 'timeout' }),
    });
    await fixture.reconcile();
    expect(fixture.pods()).toHaveLength(2);
    expect(fixture.recorder.reasons()).not.toContain('FailedCreate');
  });
});
