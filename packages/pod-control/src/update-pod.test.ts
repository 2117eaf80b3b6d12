import { describe, expect, it } from 'vitest';

import type { Lifecycle, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
import type { InPlaceDecision } from '@kruise-ts/inplace-update';

import { owner, pod, podControlFixture, revision, template, writes } from '../test/fixtures/pod-control-fixture.ts';
import type { PodControlFixture, PodOptions } from '../test/fixtures/pod-control-fixture.ts';
import { CHANGED, InPlaceDecisions, PodUpdatePolicy, RECREATE, updatePodInPlace, WAITING } from './update-pod.ts';
import type { InPlaceUpdateOutcome, PodUpdatePlan } from './update-pod.ts';

const FROM = revision(template('nginx:1.25'), 1);
const IMAGE_CHANGE = revision(template('nginx:1.26'), 2);
const COMMAND_CHANGE = revision(template('nginx:1.25', ['nginx', '-g', 'daemon off;']), 3);
const FROM_NAME = FROM.metadata?.name ?? '';
const STATE_LABEL = 'lifecycle.apps.kruise.io/state';
const HOOK_LABEL = 'example.com/hold-update';

interface Update {
  readonly fixture: PodControlFixture;
  readonly run: (target?: DeepReadonly<typeof FROM>) => Promise<InPlaceUpdateOutcome>;
}

/** The pod `web-0` at revision FROM (running, with the InPlaceUpdateReady gate unless `gate` is false), and an update of it. */
function update(input: {
  policy: PodUpdatePolicy;
  gate?: boolean;
  lifecycle?: Lifecycle;
  gracePeriodSeconds?: number;
  pod?: PodOptions;
}): Update {
  const gates = input.gate === false ? [] : ['InPlaceUpdateReady'];
  const fixture = podControlFixture({
    pods: [
      pod('web-0', {
        running: true,
        gates,
        trueConditions: gates,
        ...input.pod,
        labels: { 'controller-revision-hash': FROM_NAME, ...input.pod?.labels },
      }),
    ],
  });
  const plan: PodUpdatePlan = {
    owner: owner(input.lifecycle),
    policy: input.policy,
    gracePeriodSeconds: input.gracePeriodSeconds ?? 0,
    revisions: [FROM, IMAGE_CHANGE, COMMAND_CHANGE],
    revisionLabels: (name) => ({ 'controller-revision-hash': name }),
    stripManagedFields: false,
    recreateOnVolumeClaimTemplatesChange: false,
    decisions: new InPlaceDecisions(),
  };
  return {
    fixture,
    run: (target = IMAGE_CHANGE) => updatePodInPlace(fixture.ctx, plan, { pod: fixture.stored('web-0'), target }),
  };
}

function imageOf(stored: Pod): string | undefined {
  return stored.spec?.containers[0]?.image;
}

describe('updatePodInPlace: in place or recreated', () => {
  it.each([
    { policy: PodUpdatePolicy.ReCreate, gate: true, change: 'image', outcome: 'recreate', writes: [] },
    {
      policy: PodUpdatePolicy.InPlaceIfPossible,
      gate: true,
      change: 'image',
      outcome: 'changed',
      writes: ['patch/status pods web-0', 'patch pods web-0'],
    },
    // Nothing could take the pod out of Service endpoints before its container restarts.
    {
      policy: PodUpdatePolicy.InPlaceIfPossible,
      gate: false,
      change: 'image',
      outcome: 'recreate',
      writes: [],
    },
    // InPlaceOnly must not recreate: in place, without the status write it has no gate for.
    {
      policy: PodUpdatePolicy.InPlaceOnly,
      gate: false,
      change: 'image',
      outcome: 'changed',
      writes: ['patch pods web-0'],
    },
    {
      policy: PodUpdatePolicy.InPlaceOnly,
      gate: true,
      change: 'image',
      outcome: 'changed',
      writes: ['patch/status pods web-0', 'patch pods web-0'],
    },
    {
      policy: PodUpdatePolicy.InPlaceIfPossible,
      gate: true,
      change: 'command',
      outcome: 'recreate',
      writes: [],
    },
    {
      policy: PodUpdatePolicy.InPlaceOnly,
      gate: true,
      change: 'command',
      outcome: 'blocked',
      writes: [],
    },
  ])('$policy, gate $gate, $change change: $outcome', async ({ policy, gate, change, outcome, writes: expected }) => {
    const subject = update({ policy, gate });
    const result = await subject.run(change === 'image' ? IMAGE_CHANGE : COMMAND_CHANGE);
    expect(result.kind).toBe(outcome);
    expect(writes(subject.fixture.fake)).toEqual(expected);
  });

  it('updates in place: the new image, the update revision’s label, lifecycle Updating, an Event, and the write awaited from the cache', async () => {
    const { fixture, run } = update({ policy: PodUpdatePolicy.InPlaceIfPossible });
    expect(await run()).toBe(CHANGED);
    const stored = fixture.stored('web-0');
    const target = IMAGE_CHANGE.metadata?.name ?? '';
    expect(imageOf(stored)).toBe('nginx:1.26');
    expect(stored.metadata?.labels).toMatchObject({ 'controller-revision-hash': target, [STATE_LABEL]: 'Updating' });
    expect(stored.status?.conditions?.find((condition) => condition.type === 'InPlaceUpdateReady')?.status).toBe(
      'False',
    );
    expect(stored.metadata?.annotations?.['apps.kruise.io/inplace-update-state']).toContain(`"revision":"${target}"`);
    expect(fixture.recorder.events).toMatchObject([
      {
        type: 'Normal',
        reason: 'SuccessfulUpdatePodInPlace',
        message: `successfully update pod web-0 in-place(revision ${target})`,
      },
    ]);
    expect(
      fixture.resourceVersionExpectations.isSatisfied({ metadata: { ...stored.metadata, resourceVersion: '1' } }),
    ).toBe(false);
  });

  it('says why InPlaceOnly cannot update, with a Warning', async () => {
    const { fixture, run } = update({ policy: PodUpdatePolicy.InPlaceOnly });
    const outcome = await run(COMMAND_CHANGE);
    expect(outcome).toEqual({
      kind: 'blocked',
      reason: expect.stringMatching(
        /^find Pod web-0 update strategy is InPlaceOnly but can not update in-place: /,
      ) as unknown,
    });
    expect(fixture.recorder.events).toMatchObject([{ type: 'Warning', reason: 'FailedUpdatePodInPlace' }]);
  });

  it('leaves a pod whose revision no longer exists to be recreated, writing nothing', async () => {
    const subject = update({
      policy: PodUpdatePolicy.InPlaceIfPossible,
      pod: { labels: { 'controller-revision-hash': 'web-gone' } },
    });
    expect(await subject.run()).toBe(RECREATE);
    expect(subject.fixture.fake.writes()).toEqual([]);
  });

  it('writes the spec to the grace annotation first and asks to come back when the grace period is over', async () => {
    const { fixture, run } = update({ policy: PodUpdatePolicy.InPlaceIfPossible, gracePeriodSeconds: 5 });
    expect(await run()).toBe(CHANGED);
    const stored = fixture.stored('web-0');
    expect(imageOf(stored)).toBe('nginx:1.25');
    expect(stored.metadata?.annotations?.['apps.kruise.io/inplace-update-grace']).toContain('nginx:1.26');
    // Counted from the end of the whole second the update started in (the pod may have left Ready late in it).
    expect(fixture.ctx.requeue.toResult()).toEqual({ requeueAfterMs: 6000 });
  });

  it('passes a failed write on after a Warning', async () => {
    const { fixture, run } = update({ policy: PodUpdatePolicy.InPlaceIfPossible });
    fixture.fake.prependReactor({ verb: 'patch', resource: 'pods', subresource: undefined }, () => {
      throw fakeApiError({
        code: 422,
        reason: 'Invalid',
        message: 'spec: Forbidden: pod updates may not change fields other than ...',
      });
    });
    await expect(run()).rejects.toThrow('pod updates may not change');
    expect(fixture.recorder.events).toMatchObject([
      {
        type: 'Warning',
        reason: 'FailedUpdatePodInPlace',
        message: expect.stringMatching(
          /^failed to update pod web-0 in-place\(revision web-[a-z0-9]+\): spec: Forbidden/,
        ) as unknown,
      },
    ]);
  });
});

describe('updatePodInPlace: the inPlaceUpdate hook', () => {
  const lifecycle: Lifecycle = { inPlaceUpdate: { labelsHandler: { [HOOK_LABEL]: 'true' } } };

  it('moves a pod the hook holds to PreparingUpdate and leaves its image', async () => {
    const { fixture, run } = update({
      policy: PodUpdatePolicy.InPlaceIfPossible,
      lifecycle,
      pod: { labels: { [HOOK_LABEL]: 'true' } },
    });
    expect(await run()).toBe(CHANGED);
    const stored = fixture.stored('web-0');
    expect(stored.metadata?.labels?.[STATE_LABEL]).toBe('PreparingUpdate');
    expect(imageOf(stored)).toBe('nginx:1.25');
    expect(writes(fixture.fake)).toEqual(['patch pods web-0']);
  });

  it('waits, writing nothing, while the hook still holds a pod in PreparingUpdate', async () => {
    const { fixture, run } = update({
      policy: PodUpdatePolicy.InPlaceIfPossible,
      lifecycle,
      pod: { labels: { [HOOK_LABEL]: 'true', [STATE_LABEL]: 'PreparingUpdate' } },
    });
    expect(await run()).toBe(WAITING);
    expect(fixture.fake.writes()).toEqual([]);
  });

  it('updates once the hook let the pod go', async () => {
    const { fixture, run } = update({
      policy: PodUpdatePolicy.InPlaceIfPossible,
      lifecycle,
      pod: { labels: { [STATE_LABEL]: 'PreparingUpdate' } },
    });
    expect(await run()).toBe(CHANGED);
    expect(imageOf(fixture.stored('web-0'))).toBe('nginx:1.26');
  });

  it('refuses a pod in PreparingDelete with a Warning and waits', async () => {
    const { fixture, run } = update({
      policy: PodUpdatePolicy.InPlaceIfPossible,
      pod: { labels: { [STATE_LABEL]: 'PreparingDelete' } },
    });
    expect(await run()).toBe(WAITING);
    expect(fixture.fake.writes()).toEqual([]);
    expect(fixture.recorder.events).toMatchObject([
      {
        type: 'Warning',
        reason: 'FailedUpdatePodInPlace',
        message: expect.stringContaining(
          'not allowed to update pod web-0 in place in lifecycle state PreparingDelete',
        ) as unknown,
      },
    ]);
  });
});

describe('InPlaceDecisions', () => {
  it('decides each revision pair once per reconcile', () => {
    const decisions = new InPlaceDecisions();
    let decided = 0;
    const decide = (): InPlaceDecision => {
      decided++;
      return { kind: 'recreate', reason: 'test' };
    };
    decisions.get('a', 'b', decide);
    decisions.get('a', 'b', decide);
    decisions.get('c', 'b', decide);
    expect(decided).toBe(2);
  });
});
