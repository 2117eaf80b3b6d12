import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { planScale } from './scale-plan.ts';
import type { ScalePlanInput } from './scale-plan.ts';

const NOW = Date.parse('2026-11-24T10:00:00Z');

function pod(ordinal: number, state: 'ready' | 'pending' | 'terminating' | 'failed' | 'readySince5s' = 'ready'): Pod {
  const ready = state === 'ready' || state === 'readySince5s';
  const since = state === 'readySince5s' ? NOW - 5000 : NOW - 600_000;
  return {
    metadata: {
      name: `web-${String(ordinal)}`,
      ...(state === 'terminating' ? { deletionTimestamp: '2026-11-24T09:59:00Z' } : {}),
    },
    status: {
      phase: state === 'pending' ? 'Pending' : state === 'failed' ? 'Failed' : 'Running',
      conditions: [
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: new Date(since).toISOString() },
      ],
    },
  };
}

function input(overrides: Partial<ScalePlanInput> & Pick<ScalePlanInput, 'replicas'>): ScalePlanInput {
  return {
    monotonic: true,
    budget: undefined,
    minReadySeconds: 0,
    now: NOW,
    condemned: [],
    staleClaims: new Set(),
    ...overrides,
  };
}

const names = (pods: readonly { readonly metadata?: { readonly name?: string } }[]): string[] =>
  pods.map((p) => p.metadata?.name ?? '');

describe('planScale, OrderedReady', () => {
  it('creates only the lowest missing ordinal and stops', () => {
    const plan = planScale(
      input({
        replicas: [
          { ordinal: 0, pod: pod(0) },
          { ordinal: 1, pod: undefined },
          { ordinal: 2, pod: undefined },
        ],
      }),
    );
    expect(plan.create).toEqual([1]);
    expect(plan.stop).toBe(true);
  });

  it('waits for a pod that is not ready before creating the next', () => {
    const plan = planScale(
      input({
        replicas: [
          { ordinal: 0, pod: pod(0, 'pending') },
          { ordinal: 1, pod: undefined },
        ],
      }),
    );
    expect(plan.create).toEqual([]);
    expect(plan.stop).toBe(true);
  });

  it('waits out minReadySeconds and asks to come back', () => {
    const plan = planScale(
      input({
        minReadySeconds: 10,
        replicas: [
          { ordinal: 0, pod: pod(0, 'readySince5s') },
          { ordinal: 1, pod: undefined },
        ],
      }),
    );
    expect(plan.create).toEqual([]);
    expect(plan.requeueMs).toBe(5001);
  });

  it('deletes the highest condemned pod only, once all are healthy', () => {
    const plan = planScale(
      input({
        replicas: [{ ordinal: 0, pod: pod(0) }],
        condemned: [
          { ordinal: 1, pod: pod(1) },
          { ordinal: 2, pod: pod(2) },
        ],
      }),
    );
    expect(names(plan.deleteCondemned)).toEqual(['web-2']);
    expect(plan.stop).toBe(true);
  });

  it('deletes an unhealthy condemned pod only when it is the first unhealthy one', () => {
    const first = planScale(
      input({
        replicas: [{ ordinal: 0, pod: pod(0) }],
        condemned: [
          { ordinal: 1, pod: pod(1) },
          { ordinal: 2, pod: pod(2, 'pending') },
        ],
      }),
    );
    expect(names(first.deleteCondemned)).toEqual(['web-2']);
    const blocked = planScale(
      input({
        replicas: [{ ordinal: 0, pod: pod(0) }],
        condemned: [
          { ordinal: 1, pod: pod(1, 'pending') },
          { ordinal: 2, pod: pod(2, 'pending') },
        ],
      }),
    );
    expect(blocked.deleteCondemned).toEqual([]);
  });

  it('waits for a terminating condemned pod', () => {
    const plan = planScale(
      input({
        replicas: [{ ordinal: 0, pod: pod(0) }],
        condemned: [
          { ordinal: 2, pod: pod(2, 'terminating') },
          { ordinal: 1, pod: pod(1) },
        ],
      }),
    );
    expect(plan.deleteCondemned).toEqual([]);
    expect(plan.stop).toBe(true);
  });

  it('replaces a failed pod and stops', () => {
    const plan = planScale(
      input({
        replicas: [
          { ordinal: 0, pod: pod(0, 'failed') },
          { ordinal: 1, pod: undefined },
        ],
      }),
    );
    expect(names(plan.deleteFinished)).toEqual(['web-0']);
    expect(plan.create).toEqual([]);
    expect(plan.stop).toBe(true);
  });

  it('does not create over a claim of a deleted pod', () => {
    const plan = planScale(input({ replicas: [{ ordinal: 0, pod: undefined }], staleClaims: new Set([0]) }));
    expect(plan.create).toEqual([]);
    expect(plan.stop).toBe(true);
  });
});

describe('planScale, Parallel', () => {
  const missing = [0, 1, 2, 3, 4].map((ordinal) => ({ ordinal, pod: undefined }));

  it('creates every missing pod at once without a budget', () => {
    const plan = planScale(input({ monotonic: false, replicas: missing }));
    expect(plan.create).toEqual([0, 1, 2, 3, 4]);
    expect(plan.stop).toBe(false);
  });

  it('creates at most scaleStrategy.maxUnavailable, counting unavailable pods against it', () => {
    expect(planScale(input({ monotonic: false, budget: 2, replicas: missing })).create).toEqual([0, 1]);
    const withPending = [{ ordinal: 0, pod: pod(0, 'pending') }, ...missing.slice(1)];
    expect(planScale(input({ monotonic: false, budget: 2, replicas: withPending })).create).toEqual([1]);
  });

  it('deletes every condemned pod at once, skipping terminating ones', () => {
    const plan = planScale(
      input({
        monotonic: false,
        replicas: [{ ordinal: 0, pod: pod(0) }],
        condemned: [
          { ordinal: 1, pod: pod(1, 'pending') },
          { ordinal: 3, pod: pod(3, 'terminating') },
          { ordinal: 2, pod: pod(2) },
        ],
      }),
    );
    expect(names(plan.deleteCondemned)).toEqual(['web-2', 'web-1']);
    expect(plan.stop).toBe(false);
  });
});

// ordinals.start moved from 2 to 4 with 2 replicas: every pod is condemned, as in OpenKruise's e2e
// "Increasing .start.ordinal". The new ordinals come first, then the old pods go.
describe('planScale, a moved ordinal window', () => {
  const condemned = [
    { ordinal: 2, pod: pod(2) },
    { ordinal: 3, pod: pod(3) },
  ];

  it('OrderedReady creates the lowest new ordinal and deletes nothing while new pods are missing or not ready', () => {
    const first = planScale(
      input({
        replicas: [
          { ordinal: 4, pod: undefined },
          { ordinal: 5, pod: undefined },
        ],
        condemned,
      }),
    );
    expect(first.create).toEqual([4]);
    expect(first.deleteCondemned).toEqual([]);
    const waiting = planScale(
      input({
        replicas: [
          { ordinal: 4, pod: pod(4) },
          { ordinal: 5, pod: pod(5, 'pending') },
        ],
        condemned,
      }),
    );
    expect(waiting.create).toEqual([]);
    expect(waiting.deleteCondemned).toEqual([]);
  });

  it('OrderedReady deletes the highest old pod once every new one is ready', () => {
    const plan = planScale(
      input({
        replicas: [
          { ordinal: 4, pod: pod(4) },
          { ordinal: 5, pod: pod(5) },
        ],
        condemned,
      }),
    );
    expect(names(plan.deleteCondemned)).toEqual(['web-3']);
  });

  it('Parallel creates the new ordinals and deletes every old pod in the same round', () => {
    const plan = planScale(
      input({
        monotonic: false,
        replicas: [
          { ordinal: 4, pod: undefined },
          { ordinal: 5, pod: undefined },
        ],
        condemned,
      }),
    );
    expect(plan.create).toEqual([4, 5]);
    expect(names(plan.deleteCondemned)).toEqual(['web-3', 'web-2']);
  });

  it('Parallel within scaleStrategy.maxUnavailable creates up to the budget and, as OpenKruise, still deletes the old pods', () => {
    const plan = planScale(
      input({
        monotonic: false,
        budget: 1,
        replicas: [
          { ordinal: 4, pod: undefined },
          { ordinal: 5, pod: undefined },
        ],
        condemned,
      }),
    );
    expect(plan.create).toEqual([4]);
    expect(names(plan.deleteCondemned)).toEqual(['web-3', 'web-2']);
  });
});
