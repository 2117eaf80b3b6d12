import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { planRollingUpdate } from './rolling-update-plan.ts';
import type { RollingUpdatePlanInput } from './rolling-update-plan.ts';

const NOW = Date.parse('2026-11-24T10:00:00Z');

function pod(
  ordinal: number,
  revision: string,
  options: { ready?: boolean; labels?: Record<string, string> } = {},
): Pod {
  return {
    metadata: { name: `web-${String(ordinal)}`, labels: { 'controller-revision-hash': revision, ...options.labels } },
    status: {
      phase: 'Running',
      conditions: [
        {
          type: 'Ready',
          status: options.ready === false ? 'False' : 'True',
          lastTransitionTime: '2026-11-24T09:00:00Z',
        },
      ],
    },
  };
}

function input(slots: Pod[], overrides: Partial<RollingUpdatePlanInput> = {}): RollingUpdatePlanInput {
  return {
    strategy: { partition: 0 },
    replicas: slots.length,
    maxUnavailable: 1,
    updateRevision: 'new',
    minReadySeconds: 0,
    now: NOW,
    slots,
    inPlaceCompleted: () => true,
    ...overrides,
  };
}

const names = (pods: readonly { readonly metadata?: { readonly name?: string } }[]): string[] =>
  pods.map((p) => p.metadata?.name ?? '');

describe('planRollingUpdate', () => {
  it('updates the highest ordinal first, one at a time with maxUnavailable 1', () => {
    const slots = [0, 1, 2].map((ordinal) => pod(ordinal, 'old'));
    expect(names(planRollingUpdate(input(slots)).updates)).toEqual(['web-2']);
  });

  it('waits while an updated pod is not ready yet (strict order)', () => {
    const slots = [pod(0, 'old'), pod(1, 'old'), pod(2, 'new', { ready: false })];
    expect(planRollingUpdate(input(slots)).updates).toEqual([]);
  });

  it('updates up to maxUnavailable pods at once', () => {
    const slots = [0, 1, 2, 3, 4].map((ordinal) => pod(ordinal, 'old'));
    expect(names(planRollingUpdate(input(slots, { maxUnavailable: 2 })).updates)).toEqual(['web-4', 'web-3']);
  });

  it('keeps the partition on the old revision', () => {
    const slots = [pod(0, 'old'), pod(1, 'old'), pod(2, 'new'), pod(3, 'new'), pod(4, 'new')];
    expect(planRollingUpdate(input(slots, { strategy: { partition: 2 }, maxUnavailable: 5 })).updates).toEqual([]);
  });

  it('counts a pod whose in-place update is not complete as unavailable', () => {
    const slots = [pod(0, 'old'), pod(1, 'new')];
    expect(planRollingUpdate(input(slots, { inPlaceCompleted: (p) => p.metadata?.name !== 'web-1' })).updates).toEqual(
      [],
    );
  });

  it('deletes specified-delete pods within the budget, ignoring partition, and skips available ones when full', () => {
    const slots = [
      pod(0, 'old', { labels: { 'apps.kruise.io/specified-delete': 'true' } }),
      pod(1, 'old', { ready: false, labels: { 'apps.kruise.io/specified-delete': 'true' } }),
      pod(2, 'old'),
    ];
    const plan = planRollingUpdate(input(slots, { strategy: { partition: 3 } }));
    expect(names(plan.specifiedDeletes)).toEqual(['web-1']);
    expect(plan.updates).toEqual([]);
  });
});

describe('planRollingUpdate with claims that follow the template (OnPodRollingUpdate)', () => {
  const claims = (
    unmatched: readonly string[],
    unready: readonly string[] = [],
  ): NonNullable<RollingUpdatePlanInput['claims']> => ({
    matched: (p) => !unmatched.includes(p.metadata?.name ?? ''),
    ready: (p) => !unready.includes(p.metadata?.name ?? ''),
  });

  it('makes a pod at the update revision a target while its claims request less than the template', () => {
    const slots = [0, 1, 2].map((ordinal) => pod(ordinal, 'new'));
    expect(planRollingUpdate(input(slots)).updates).toEqual([]);
    expect(names(planRollingUpdate(input(slots, { claims: claims(['web-0', 'web-1', 'web-2']) })).updates)).toEqual([
      'web-2',
    ]);
  });

  it('counts a pod whose claims have not reached their capacity as unavailable', () => {
    const slots = [pod(0, 'new'), pod(1, 'new'), pod(2, 'new')];
    expect(planRollingUpdate(input(slots, { claims: claims(['web-0', 'web-1'], ['web-2']) })).updates).toEqual([]);
    expect(names(planRollingUpdate(input(slots, { claims: claims(['web-0', 'web-1']) })).updates)).toEqual(['web-1']);
  });
});
