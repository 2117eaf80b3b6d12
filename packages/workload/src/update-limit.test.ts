import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { names } from '../test/fixtures/pods.ts';
import { limitUpdateCandidates } from './update-limit.ts';
import type { LimitUpdateCandidatesOptions } from './update-limit.ts';

const REVISION_LABEL = 'controller-revision-hash';

/**
 * Pods described as a string, one letter per pod named by its index: `o`/`O` at the old revision,
 * `n`/`N` at the new one; upper case = available.
 */
function podsOf(spec: string): Pod[] {
  return Array.from(spec).map((letter, index) => ({
    metadata: {
      name: String(index),
      labels: {
        [REVISION_LABEL]: letter.toLowerCase() === 'n' ? 'new' : 'old',
        available: String(letter === letter.toUpperCase()),
      },
    },
  }));
}

const isAvailable: LimitUpdateCandidatesOptions['isAvailable'] = (p) => p.metadata?.labels?.['available'] === 'true';

function atRevision(revision: string): LimitUpdateCandidatesOptions['isAtTargetRevision'] {
  return (p) => p.metadata?.labels?.[REVISION_LABEL] === revision;
}

function pick(pods: readonly Pod[], indexes: readonly number[]): Pod[] {
  return indexes.flatMap((index) => pods.slice(index, index + 1));
}

describe('limitUpdateCandidates (vectors of OpenKruise cloneset_update_test.go TestCalculateUpdateCount)', () => {
  // updateCount and updateMaxUnavailable as calculateDiffsWithExpectation gives them for each upstream
  // case (partition, maxUnavailable, maxSurge as noted); minReadySeconds 0.
  it.for([
    ['R3 all old available, U 20%', 'OOO', [0, 1, 2], 3, 1, 'new', 1],
    ['R3, the second old pod unavailable', 'OoO', [0, 1, 2], 3, 1, 'new', 0],
    ['R3 the first candidate unavailable', 'oOO', [0, 1, 2], 3, 1, 'new', 1],
    ['R10, two old unavailable', 'oOOOOOOOoN', [0, 1, 2, 3, 4, 5, 6, 7, 8], 9, 2, 'new', 1],
    ['R3 partition 2, nothing to update', 'oON', [0, 1], 0, 3, 'new', 0],
    ['R8 partition 2, U 50%', 'oOoOOOOn', [0, 1, 2, 3, 4, 5, 6], 5, 4, 'new', 3],
    ['R5 all old unavailable, U 2', 'ooooo', [0, 1, 2, 3, 4], 5, 2, 'new', 2],
    ['R5 2 updating unavailable', 'ooonn', [0, 1, 2], 3, 2, 'new', 0],
    ['R5 1 updated, 1 updating', 'oooNn', [0, 1, 2], 3, 2, 'new', 1],
    ['R5 S1, 1 creating', 'ooooon', [0, 1, 2, 3, 4], 4, 3, 'new', 2],
    ['R5 S1, 1 updated, 1 updating', 'ooooNn', [0, 1, 2, 3], 3, 3, 'new', 2],
    ['R5 S1, 1 updated, 2 updating', 'ooonNn', [0, 1, 2], 2, 3, 'new', 1],
    ['R5 S1, 3 updating', 'ooonnn', [0, 1, 2], 2, 3, 'new', 0],
    ['rollback R8 partition 7, new pods unavailable', 'OOOnnnnn', [3, 4, 5, 6, 7], 4, 2, 'old', 2],
    ['U 0, S 2, one surge pod in use', 'OONNN', [0, 1], 1, 1, 'new', 1],
    ['U 0, S 2, both surge pods in use', 'OOOONN', [0, 1, 2, 3], 2, 2, 'new', 2],
  ] as const)('%s', ([, spec, candidateIndexes, updateCount, updateMaxUnavailable, target, expected]) => {
    const allPods = podsOf(spec);
    const result = limitUpdateCandidates(pick(allPods, candidateIndexes), {
      updateCount,
      updateMaxUnavailable,
      allPods,
      isAvailable,
      isAtTargetRevision: atRevision(target),
    });
    expect(result).toHaveLength(expected);
    expect(names(result)).toEqual(candidateIndexes.slice(0, expected).map(String));
  });
});

describe('limitUpdateCandidates: the rules', () => {
  const options = (
    allPods: readonly Pod[],
    updateCount: number,
    updateMaxUnavailable: number,
  ): LimitUpdateCandidatesOptions => ({
    updateCount,
    updateMaxUnavailable,
    allPods,
    isAvailable,
    isAtTargetRevision: atRevision('new'),
  });

  it('takes at most |updateCount| candidates', () => {
    const pods = podsOf('oooooo');
    expect(names(limitUpdateCandidates(pods, options(pods, 2, 10)))).toEqual(['0', '1']);
    expect(names(limitUpdateCandidates(pods, options(pods, -3, 10)))).toEqual(['0', '1', '2']);
    expect(limitUpdateCandidates(pods, options(pods, 0, 10))).toEqual([]);
  });

  it('lets available candidates use the overall budget only while it lasts', () => {
    const pods = podsOf('OOOOOO');
    expect(names(limitUpdateCandidates(pods, options(pods, 6, 2)))).toEqual(['0', '1']);
    const withUnavailable = podsOf('OOOOOo');
    // Pod 5 is unavailable already: one unit of the budget of 2 is gone.
    expect(names(limitUpdateCandidates(withUnavailable, options(withUnavailable, 5, 2)))).toEqual(['0']);
  });

  it('does not charge already-unavailable candidates to the overall budget', () => {
    // 3 unavailable old pods with a budget of 2: available pods cannot be taken, unavailable ones can.
    const pods = podsOf('oooOOO');
    expect(names(limitUpdateCandidates(pods, options(pods, 6, 2)))).toEqual(['0', '1']);
    // Available first: the walk stops at once, it does not skip ahead to the unavailable ones.
    const availableFirst = pick(pods, [3, 0, 1]);
    expect(limitUpdateCandidates(availableFirst, options(pods, 3, 2))).toEqual([]);
  });

  it('counts unavailable pods at the target revision, and every accepted candidate, against the budget', () => {
    // One unavailable pod is at the target revision already: budget 3 leaves room for 2 candidates,
    // although they are unavailable and do not add to the overall count.
    const pods = podsOf('ooooon');
    expect(names(limitUpdateCandidates(pods.slice(0, 5), options(pods, 5, 3)))).toEqual(['0', '1']);
    // Available pods at the target revision do not count.
    const availableNew = podsOf('oooooN');
    expect(names(limitUpdateCandidates(availableNew.slice(0, 5), options(availableNew, 5, 3)))).toEqual([
      '0',
      '1',
      '2',
    ]);
  });

  it('stops at once when the budget is 0 or already exhausted', () => {
    const pods = podsOf('oooo');
    expect(limitUpdateCandidates(pods, options(pods, 4, 0))).toEqual([]);
    const exhausted = podsOf('OOnn');
    expect(limitUpdateCandidates(exhausted.slice(0, 2), options(exhausted, 2, 2))).toEqual([]);
  });

  it('returns a new array, a prefix of the input, without touching it', () => {
    const pods = Object.freeze(podsOf('oo'));
    const result = limitUpdateCandidates(pods, options(pods, 5, 5));
    expect(result).not.toBe(pods);
    expect(result).toEqual([...pods]);
  });
});
