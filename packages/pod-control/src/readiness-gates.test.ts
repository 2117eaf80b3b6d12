import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';

import { pod, podControlFixture, storedPods, writes } from '../test/fixtures/pod-control-fixture.ts';
import { initializePodReadinessGates, initializeReadinessGates } from './readiness-gates.ts';

const BOTH = ['InPlaceUpdateReady', 'KruisePodReady'];

function gateConditions(stored: Pod): [string, string][] {
  return (stored.status?.conditions ?? [])
    .filter((condition) => BOTH.includes(condition.type))
    .map((condition) => [condition.type, condition.status]);
}

describe('initializeReadinessGates', () => {
  it.each([
    {
      name: 'both gates, no conditions',
      gates: BOTH,
      trueConditions: [],
      written: [
        ['InPlaceUpdateReady', 'True'],
        ['KruisePodReady', 'True'],
      ],
    },
    {
      name: 'one gate missing its condition',
      gates: BOTH,
      trueConditions: ['InPlaceUpdateReady'],
      written: [
        ['InPlaceUpdateReady', 'True'],
        ['KruisePodReady', 'True'],
      ],
    },
    {
      name: 'only KruisePodReady',
      gates: ['KruisePodReady'],
      trueConditions: [],
      written: [['KruisePodReady', 'True']],
    },
  ])('gives a pod with $name its conditions in one status write', async ({ gates, trueConditions, written }) => {
    const fixture = podControlFixture({ pods: [pod('web-0', { gates, trueConditions })] });
    expect(await initializeReadinessGates(fixture.ctx, storedPods(fixture, 'web-0'))).toBe(true);
    expect(writes(fixture.fake)).toEqual(['patch/status pods web-0']);
    expect(gateConditions(fixture.stored('web-0'))).toEqual(written);
    const stored = fixture.stored('web-0');
    expect(
      fixture.resourceVersionExpectations.isSatisfied({ metadata: { ...stored.metadata, resourceVersion: '1' } }),
    ).toBe(false);
  });

  it.each([
    { name: 'declares no gate', options: {} },
    { name: 'declares only other gates', options: { gates: ['example.com/ready'] } },
    { name: 'has its conditions already', options: { gates: BOTH, trueConditions: BOTH } },
  ])('writes nothing for a pod that $name', async ({ options }) => {
    const fixture = podControlFixture({ pods: [pod('web-0', options)] });
    expect(await initializeReadinessGates(fixture.ctx, storedPods(fixture, 'web-0'))).toBe(false);
    expect(fixture.fake.writes()).toEqual([]);
  });

  it('leaves a pod being deleted alone', async () => {
    const fixture = podControlFixture({ pods: [pod('web-0', { gates: BOTH })] });
    const [stored] = storedPods(fixture, 'web-0');
    const deleting: Pod = { ...stored, metadata: { ...stored?.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    expect(await initializeReadinessGates(fixture.ctx, [deleting])).toBe(false);
    expect(fixture.fake.writes()).toEqual([]);
  });

  it('writes each pod that needs it, and only those', async () => {
    const fixture = podControlFixture({
      pods: [pod('web-0', { gates: BOTH }), pod('web-1'), pod('web-2', { gates: BOTH })],
    });
    expect(await initializeReadinessGates(fixture.ctx, storedPods(fixture, 'web-0', 'web-1', 'web-2'))).toBe(true);
    expect(writes(fixture.fake)).toEqual(['patch/status pods web-0', 'patch/status pods web-2']);
  });
});

describe('initializePodReadinessGates', () => {
  it('returns the pod as it was for a pod deleted meanwhile', async () => {
    const fixture = podControlFixture();
    const gone = pod('web-0', { gates: BOTH });
    expect(await initializePodReadinessGates(fixture.ctx, gone)).toBe(gone);
  });

  it('passes any other failure on', async () => {
    const fixture = podControlFixture({ pods: [pod('web-0', { gates: BOTH })] });
    fixture.fake.prependReactor({ verb: 'patch', resource: 'pods', subresource: 'status' }, () => {
      throw fakeApiError({ code: 500, message: 'etcdserver: request timed out' });
    });
    await expect(initializePodReadinessGates(fixture.ctx, fixture.stored('web-0'))).rejects.toThrow(
      'etcdserver: request timed out',
    );
  });
});
