import { describe, expect, it } from 'vitest';

import { sidecarSetSchema } from '@kruise-ts/api';
import type { Pod, SidecarSetInput } from '@kruise-ts/api';

import { isSidecarStateConsistent } from './inplace-state.ts';
import { maxUnavailableCount, partitionCount, planUpgrade } from './upgrade-plan.ts';
import type { UpgradeCandidate } from './upgrade-plan.ts';

function set(updateStrategy: SidecarSetInput['spec']['updateStrategy']) {
  return sidecarSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 's' },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'logger', image: 'x' }], updateStrategy },
  });
}

function candidate(
  name: string,
  flags: Partial<Omit<UpgradeCandidate, 'pod'>> = {},
  labels: Record<string, string> = {},
): UpgradeCandidate {
  const pod: Pod = {
    metadata: { name, namespace: 'n', labels: { app: 'web', ...labels }, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { containers: [] },
    status: { phase: 'Running' },
  };
  return { pod, updated: false, imagesOnly: true, consistent: true, ready: true, workloadUpdating: false, ...flags };
}

const names = (plan: ReturnType<typeof planUpgrade>): string[] =>
  plan.upgrade.map((pod) => pod.metadata?.name ?? '').sort();

describe('partitionCount and maxUnavailableCount', () => {
  it.each([
    [0, 10, 0],
    [3, 10, 3],
    [30, 10, 10],
    ['25%', 10, 3],
    ['99%', 10, 9],
    ['100%', 10, 10],
    ['50%', 1, 1],
  ] as const)('partition %j of %i keeps %i', (partition, total, kept) => {
    expect(partitionCount(partition, total)).toBe(kept);
  });

  it.each([
    [1, 10, 1],
    ['25%', 10, 3],
    ['1%', 10, 1],
  ] as const)('maxUnavailable %j of %i is %i (rounded up)', (value, total, count) => {
    expect(maxUnavailableCount(value, total)).toBe(count);
  });
});

describe('planUpgrade', () => {
  it('takes ready pods within maxUnavailable and keeps the partition out', () => {
    const pods = ['a', 'b', 'c', 'd'].map((name) => candidate(name));
    expect(names(planUpgrade(set({ maxUnavailable: 2 }), pods))).toHaveLength(2);
    expect(planUpgrade(set({ maxUnavailable: 10, partition: 1 }), pods).upgrade).toHaveLength(3);
    expect(planUpgrade(set({ maxUnavailable: 10, partition: 4 }), pods).upgrade).toHaveLength(0);
  });

  it('counts updated pods that are not ready against the budget, and takes unready pods for free', () => {
    const pods = [
      candidate('updated-unready', { updated: true, ready: false }),
      candidate('a'),
      candidate('b', { ready: false }),
    ];
    expect(names(planUpgrade(set({ maxUnavailable: 1 }), pods))).toEqual(['b']);
    expect(names(planUpgrade(set({ maxUnavailable: 2 }), pods))).toEqual(['a', 'b']);
  });

  it('skips pods with an upgrade in flight, reports those whose change is more than images, and follows the selector', () => {
    const pods = [
      candidate('inflight', { consistent: false }),
      candidate('other-change', { imagesOnly: false }),
      candidate('canary', {}, { canary: 'true' }),
      candidate('rest'),
      candidate('workload-updating', { workloadUpdating: true }, { canary: 'true' }),
    ];
    const plan = planUpgrade(set({ maxUnavailable: 10, selector: { matchLabels: { canary: 'true' } } }), pods);
    expect(names(plan)).toEqual(['canary']);
    expect(planUpgrade(set({ maxUnavailable: 10 }), pods).notUpgradable.map((pod) => pod.metadata?.name)).toEqual([
      'other-change',
    ]);
  });
});

describe('isSidecarStateConsistent', () => {
  const pod = (statusImageID: string, recorded: string | undefined, statusImage = 'old'): Pod => ({
    metadata: {
      name: 'p',
      annotations:
        recorded === undefined
          ? {}
          : {
              'kruise.io/sidecarset-inplace-update-state': JSON.stringify({
                s: { lastContainerStatuses: { logger: { imageID: recorded } } },
              }),
            },
    },
    spec: { containers: [{ name: 'logger', image: 'new' }] },
    status: {
      containerStatuses: [{ name: 'logger', image: statusImage, imageID: statusImageID, ready: true, restartCount: 0 }],
    },
  });
  it.each([
    { name: 'no record', input: pod('id-old', undefined), consistent: true },
    { name: 'still the recorded image', input: pod('id-old', 'id-old'), consistent: false },
    { name: 'a new imageID', input: pod('id-new', 'id-old'), consistent: true },
    { name: 'the status image equals the spec', input: pod('id-old', 'id-old', 'new'), consistent: true },
  ])('$name: $consistent', ({ input, consistent }) => {
    expect(isSidecarStateConsistent(input, 's', ['logger'])).toBe(consistent);
  });
});
