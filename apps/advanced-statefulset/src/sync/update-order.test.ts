import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { isCurrentRevisionNeeded, podsToUpdate } from './update-order.ts';

function pod(name: string, revision: string, labels: Record<string, string> = {}): Pod {
  return { metadata: { name, labels: { 'controller-revision-hash': revision, ...labels } } };
}

const fiveOld = ['a', 'b', 'c', 'd', 'e'].map((_, index) => pod(`web-${String(index)}`, 'old'));

describe('podsToUpdate, ordered', () => {
  it.each([
    [0, [4, 3, 2, 1, 0]],
    [2, [4, 3, 2]],
    [5, []],
    [7, []],
  ])('partition %i of 5 updates slots %j', (partition, expected) => {
    expect(podsToUpdate({ strategy: { partition }, replicas: 5, updateRevision: 'new', slots: fiveOld })).toEqual(
      expected,
    );
  });

  it('skips empty slots (reserved ordinals) and still updates at most replicas − partition', () => {
    const slots = [fiveOld[0], undefined, fiveOld[2], fiveOld[3], undefined, fiveOld[4]];
    expect(podsToUpdate({ strategy: { partition: 1 }, replicas: 4, updateRevision: 'new', slots })).toEqual([5, 3, 2]);
  });
});

describe('podsToUpdate, unordered', () => {
  it('puts updated pods first, then waiting ones by descending slot', () => {
    const slots = [pod('web-0', 'old'), pod('web-1', 'new'), pod('web-2', 'old'), pod('web-3', 'old')];
    expect(
      podsToUpdate({ strategy: { partition: 0, unorderedUpdate: {} }, replicas: 4, updateRevision: 'new', slots }),
    ).toEqual([1, 3, 2, 0]);
  });

  it('orders waiting pods by weight priority, keeping partition pods on the old revision', () => {
    const slots = [
      pod('web-0', 'old', { tier: 'canary' }),
      pod('web-1', 'old'),
      pod('web-2', 'old', { tier: 'canary' }),
      pod('web-3', 'old'),
    ];
    const strategy = {
      partition: 2,
      unorderedUpdate: {
        priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { tier: 'canary' } } }] },
      },
    };
    expect(podsToUpdate({ strategy, replicas: 4, updateRevision: 'new', slots })).toEqual([2, 0]);
  });
});

describe('isCurrentRevisionNeeded', () => {
  it.each([
    // partition, index ⇒ current
    [2, 0, true],
    [2, 1, true],
    [2, 2, false],
    [0, 0, false],
  ])('ordered, partition %i, slot %i ⇒ %s', (partition, index, current) => {
    expect(
      isCurrentRevisionNeeded({
        onDelete: false,
        strategy: { partition },
        updateRevision: 'new',
        index,
        slots: fiveOld,
      }),
    ).toBe(current);
  });

  it('always gives OnDelete sets the update revision', () => {
    expect(
      isCurrentRevisionNeeded({
        onDelete: true,
        strategy: { partition: 5 },
        updateRevision: 'new',
        index: 0,
        slots: fiveOld,
      }),
    ).toBe(false);
  });

  it('unordered: current while fewer than partition other pods are old', () => {
    const slots = [pod('web-0', 'old'), pod('web-1', 'new'), undefined];
    expect(
      isCurrentRevisionNeeded({
        onDelete: false,
        strategy: { partition: 2, unorderedUpdate: {} },
        updateRevision: 'new',
        index: 2,
        slots,
      }),
    ).toBe(true);
    expect(
      isCurrentRevisionNeeded({
        onDelete: false,
        strategy: { partition: 1, unorderedUpdate: {} },
        updateRevision: 'new',
        index: 2,
        slots,
      }),
    ).toBe(false);
  });
});
