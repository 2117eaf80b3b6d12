import { describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';

import {
  allocateInstanceIds,
  INSTANCE_ID_ALPHABET,
  INSTANCE_ID_LENGTH,
  instanceIdOf,
  randomInstanceId,
} from './instance-id.ts';

const ID_PATTERN = new RegExp(`^[${INSTANCE_ID_ALPHABET}]{${String(INSTANCE_ID_LENGTH)}}$`);

function withId(id: string, deleting = false): Pod & PersistentVolumeClaim {
  return {
    metadata: {
      name: id,
      labels: { 'apps.kruise.io/cloneset-instance-id': id },
      ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
  };
}

/** The middle of the alphabet slot `index` in [0, 1). */
function at(index: number): number {
  return (index + 0.5) / INSTANCE_ID_ALPHABET.length;
}

/** A deterministic random source cycling through the given values. */
function sequence(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length] ?? 0;
}

describe('randomInstanceId', () => {
  it('draws 5 characters from the alphabet', () => {
    expect(INSTANCE_ID_ALPHABET).toBe('bcdfghjklmnpqrstvwxz2456789');
    for (let i = 0; i < 200; i++) {
      expect(randomInstanceId()).toMatch(ID_PATTERN);
    }
  });

  it('maps [0, 1) onto the alphabet, first to last', () => {
    expect(randomInstanceId(() => 0)).toBe('bbbbb');
    expect(randomInstanceId(() => 0.999_999)).toBe('99999');
    expect(randomInstanceId(sequence(at(0), at(1), at(2), at(26), at(11)))).toBe('bcd9p');
    // A broken source returning 1 stays inside the alphabet.
    expect(randomInstanceId(() => 1)).toBe('99999');
  });
});

describe('instanceIdOf', () => {
  it('reads the instance-id label', () => {
    expect(instanceIdOf(withId('abcde'))).toBe('abcde');
    expect(instanceIdOf({ metadata: { labels: { 'apps.kruise.io/cloneset-instance-id': '' } } })).toBeUndefined();
    expect(instanceIdOf({ metadata: {} })).toBeUndefined();
    expect(instanceIdOf({})).toBeUndefined();
  });
});

describe('allocateInstanceIds', () => {
  it('reuses ids of PVCs no active pod uses, sorted', () => {
    const ids = allocateInstanceIds({
      count: 2,
      activePods: [withId('aaaaa')],
      pvcs: [withId('aaaaa'), withId('zzzzz'), withId('mmmmm')],
      random: () => 0,
    });
    expect(ids).toEqual(['mmmmm', 'zzzzz']);
  });

  it('generates the rest, never an id of an active pod or PVC, and never the same twice', () => {
    // Five draws per id: bbbbb (an active pod's), ccccc (a deleting PVC's: not reused, not generated),
    // ddddd (new), ddddd again (already generated), fffff (new).
    const random = sequence(...[0, 1, 2, 2, 3].flatMap((index) => Array<number>(5).fill(at(index))));
    const ids = allocateInstanceIds({ count: 2, activePods: [withId('bbbbb')], pvcs: [withId('ccccc', true)], random });
    expect(ids).toEqual(['ddddd', 'fffff']);
  });

  it('returns reused and generated ids together in ascending order', () => {
    const ids = allocateInstanceIds({ count: 3, activePods: [], pvcs: [withId('xxxxx')], random: Math.random });
    expect(ids).toHaveLength(3);
    expect(ids).toContain('xxxxx');
    expect(ids).toEqual([...ids].sort());
    for (const id of ids.filter((i) => i !== 'xxxxx')) {
      expect(id).toMatch(ID_PATTERN);
    }
  });

  it('takes only as many reusable ids as asked for, smallest first', () => {
    expect(allocateInstanceIds({ count: 1, activePods: [], pvcs: [withId('kkkkk'), withId('ggggg')] })).toEqual([
      'ggggg',
    ]);
    expect(allocateInstanceIds({ count: 0, activePods: [], pvcs: [withId('kkkkk')] })).toEqual([]);
  });

  it('counts several PVCs of one instance once', () => {
    expect(
      allocateInstanceIds({ count: 2, activePods: [], pvcs: [withId('kkkkk'), withId('kkkkk')], random: () => 0 }),
    ).toEqual(['bbbbb', 'kkkkk']);
  });

  it('gives unique ids for large counts', () => {
    const ids = allocateInstanceIds({ count: 500, activePods: [], pvcs: [] });
    expect(new Set(ids).size).toBe(500);
  });
});
