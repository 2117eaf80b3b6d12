import { describe, expect, it } from 'vitest';

import type { StatefulSet } from '@kruise-ts/api';
import { TerminalError } from '@kruise-ts/controller-runtime';
import { MISSING_IMAGE_VERDICT, scriptedValidator } from '@kruise-ts/template-validation/testing';
import { podResource } from '@kruise-ts/workload';

import { reconcileFixture, statefulSet, webSpec } from '../test/fixtures/reconcile-fixture.ts';
import type { ReconcileFixture } from '../test/fixtures/reconcile-fixture.ts';

type Condition = NonNullable<NonNullable<StatefulSet['status']>['conditions']>[number];

function condition(fixture: ReconcileFixture, type: string): Condition | undefined {
  return fixture.stored().status?.conditions?.find((candidate) => candidate.type === type);
}

describe('StatefulSetReconciler template check (over the in-memory API)', () => {
  it('reports a template the API server refuses and creates nothing', async () => {
    const validator = scriptedValidator(MISSING_IMAGE_VERDICT);
    const fixture = reconcileFixture([statefulSet({ spec: webSpec(3), generation: 4 })], {
      templateValidator: validator,
    });
    await expect(fixture.reconcile()).rejects.toBeInstanceOf(TerminalError);

    expect(fixture.fake.objects(podResource)).toEqual([]);
    expect(
      fixture.fake.writes().map((action) => `${action.verb} ${action.resource}/${action.subresource ?? ''}`),
    ).toEqual(['patch statefulsets/status']);
    const message =
      'StatefulSet "web" is invalid: spec.template.spec.containers[0].image: Required value; no pod is created from this template until it is fixed';
    expect(fixture.recorder.events).toMatchObject([{ type: 'Warning', reason: 'FailedCreate', message }]);
    expect(condition(fixture, 'FailedCreatePod')).toMatchObject({ status: 'True', reason: 'InvalidTemplate', message });
    expect(fixture.stored().status?.observedGeneration).toBe(4);
    expect(validator.targets.map((target) => target.pod.spec?.hostname)).toEqual(['web-2']);
  });

  it('reports the same problem once', async () => {
    const fixture = reconcileFixture([statefulSet({ spec: webSpec(1) })], {
      templateValidator: scriptedValidator(MISSING_IMAGE_VERDICT),
    });
    await expect(fixture.reconcile()).rejects.toBeInstanceOf(TerminalError);
    await expect(fixture.reconcile()).rejects.toBeInstanceOf(TerminalError);
    expect(fixture.recorder.reasons()).toEqual(['FailedCreate']);
  });

  it('creates pods and clears the condition once the template is valid', async () => {
    const validator = scriptedValidator(MISSING_IMAGE_VERDICT);
    const fixture = reconcileFixture([statefulSet({ spec: webSpec(1) })], { templateValidator: validator });
    await expect(fixture.reconcile()).rejects.toBeInstanceOf(TerminalError);
    validator.verdict = { kind: 'valid', warnings: [] };
    await fixture.reconcile();
    expect(fixture.fake.objects(podResource).map((pod) => pod.metadata?.name)).toEqual(['web-0']);
    expect(condition(fixture, 'FailedCreatePod')).toBeUndefined();
  });

  it('goes on without the check when the dry run could not answer', async () => {
    const fixture = reconcileFixture([statefulSet({ spec: webSpec(1) })], {
      templateValidator: scriptedValidator({ kind: 'unknown', message: 'timeout' }),
    });
    await fixture.reconcile();
    expect(fixture.fake.objects(podResource).map((pod) => pod.metadata?.name)).toEqual(['web-0']);
    expect(fixture.recorder.reasons()).not.toContain('FailedCreate');
  });
});
