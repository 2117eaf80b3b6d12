import { cloneSetSchema } from '@kruise-ts/api';
import type { CloneSet, CloneSetInput, IntOrString, Pod } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';

import { resolveStrategy } from '../strategy-values.ts';
import { calculateDiffs } from './diffs.ts';
import type { PodDiffs } from './diffs.ts';

const NOW = Date.UTC(2026, 10, 21);

interface SetOptions {
  readonly replicas: number;
  readonly partition: IntOrString;
  readonly maxUnavailable: IntOrString;
  readonly maxSurge: IntOrString;
  readonly scaleMaxUnavailable?: IntOrString;
  readonly paused?: boolean;
}

function cloneSet(options: SetOptions): CloneSet {
  const input: CloneSetInput = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'cs', namespace: 'ns' },
    spec: {
      replicas: options.replicas,
      selector: { matchLabels: { app: 'x' } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      updateStrategy: {
        partition: options.partition,
        maxUnavailable: options.maxUnavailable,
        maxSurge: options.maxSurge,
        ...(options.paused === undefined ? {} : { paused: options.paused }),
      },
      ...(options.scaleMaxUnavailable === undefined
        ? {}
        : { scaleStrategy: { maxUnavailable: options.scaleMaxUnavailable } }),
    },
  };
  return cloneSetSchema.parse(input);
}

type PodShape = readonly [revision: 'old' | 'new', state: string, ready: boolean, specifiedDelete?: boolean];

let counter = 0;
function pod([revision, state, ready, specifiedDelete]: PodShape): Pod {
  counter++;
  return {
    metadata: {
      name: `pod-${String(counter)}`,
      labels: {
        'controller-revision-hash': revision,
        'lifecycle.apps.kruise.io/state': state,
        ...(specifiedDelete === true ? { 'apps.kruise.io/specified-delete': 'true' } : {}),
      },
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

const ZERO: PodDiffs = {
  scaleUpNum: 0,
  scaleUpNumOldRevision: 0,
  scaleDownNum: 0,
  scaleDownNumOldRevision: 0,
  scaleUpLimit: 0,
  deleteReadyLimit: 0,
  useSurge: 0,
  useSurgeOldRevision: 0,
  updateNum: 0,
  updateMaxUnavailable: 0,
};

const ready = (revision: 'old' | 'new', specifiedDelete = false): PodShape => [
  revision,
  'Normal',
  true,
  specifiedDelete,
];
const notReady = (revision: 'old' | 'new', state = 'Normal'): PodShape => [revision, state, false];
const times = (n: number, shape: PodShape): PodShape[] => Array.from({ length: n }, () => shape);

interface Case {
  readonly name: string;
  readonly set: SetOptions;
  readonly pods: readonly PodShape[];
  readonly expected: Partial<PodDiffs>;
  /** current == update revision (no rollout in progress). */
  readonly consistent?: boolean;
  readonly rollback?: boolean;
  readonly excludePreparingDelete?: boolean;
}

const R5 = (partition: IntOrString, maxUnavailable: IntOrString, maxSurge: IntOrString): SetOptions => ({
  replicas: 5,
  partition,
  maxUnavailable,
  maxSurge,
});

const CASES: readonly Case[] = [
  {
    name: 'an empty cloneset',
    set: { replicas: 0, partition: 0, maxUnavailable: 1, maxSurge: 0 },
    pods: [],
    expected: {},
  },
  { name: 'scale up 0 to 5', set: R5(0, 1, 0), pods: [], expected: { scaleUpNum: 5, scaleUpLimit: 5 } },
  { name: 'steady at 5', set: R5(0, 1, 0), pods: times(5, ready('new')), expected: {} },
  {
    name: 'specified delete 1 of 5 ready pods',
    set: R5(0, 1, 0),
    pods: [ready('new', true), ...times(4, ready('new'))],
    expected: { deleteReadyLimit: 1 },
  },
  {
    name: 'replace the deleted pod',
    set: R5(0, 1, 0),
    pods: times(4, ready('new')),
    expected: { scaleUpNum: 1, scaleUpLimit: 1 },
  },
  {
    name: 'specified delete 2 of 5, maxUnavailable 1',
    set: R5(0, 1, 0),
    pods: [ready('new', true), ready('new', true), ...times(3, ready('new'))],
    expected: { deleteReadyLimit: 1 },
  },
  {
    name: 'specified delete 2 and replicas to 4',
    set: { replicas: 4, partition: 0, maxUnavailable: 1, maxSurge: 0 },
    pods: [ready('new', true), ready('new', true), ...times(3, ready('new'))],
    expected: { deleteReadyLimit: 2 },
  },
  {
    name: 'update with partition 3',
    set: R5(3, 1, 0),
    pods: times(5, ready('old')),
    expected: { updateNum: 2, updateMaxUnavailable: 1 },
  },
  {
    name: 'update with partition 3, one updated',
    set: R5(3, 1, 0),
    pods: [...times(4, ready('old')), ready('new')],
    expected: { updateNum: 1, updateMaxUnavailable: 1 },
  },
  {
    name: 'scenario B step 1: surge replaces the specified-delete pod first',
    set: R5(0, 0, 1),
    pods: [ready('new', true), ...times(4, ready('new'))],
    expected: { scaleUpNum: 1, useSurge: 1, scaleUpLimit: 1 },
  },
  {
    name: 'scenario B step 2: replacement not available, wait',
    set: R5(0, 0, 1),
    pods: [ready('new', true), ...times(4, ready('new')), notReady('new')],
    expected: { useSurge: 1 },
  },
  {
    name: 'scenario B step 3: replacement available, delete',
    set: R5(0, 0, 1),
    pods: [ready('new', true), ...times(5, ready('new'))],
    expected: { deleteReadyLimit: 1, useSurge: 1 },
  },
  {
    name: 'in-place partition 3 with maxSurge: step 1',
    set: R5(3, 1, 1),
    pods: times(5, ready('old')),
    expected: { scaleUpNum: 1, useSurge: 1, updateNum: 2, updateMaxUnavailable: 1, scaleUpLimit: 1 },
  },
  {
    name: 'in-place partition 3 with maxSurge: step 2',
    set: R5(3, 1, 1),
    pods: [...times(5, ready('old')), notReady('new')],
    expected: { useSurge: 1, updateNum: 1, updateMaxUnavailable: 2 },
  },
  {
    name: 'in-place partition 3 with maxSurge: step 3',
    set: R5(3, 1, 1),
    pods: [...times(4, ready('old')), notReady('new', 'Updating'), notReady('new')],
    expected: { scaleDownNum: 1, scaleDownNumOldRevision: 1 },
  },
  {
    name: 'in-place partition 3 with maxSurge: step 4',
    set: R5(3, 1, 1),
    pods: [...times(4, ready('old')), ready('new'), notReady('new')],
    expected: { scaleDownNum: 1, scaleDownNumOldRevision: 1, deleteReadyLimit: 1 },
  },
  {
    name: 'partition 99% with maxUnavailable 3 and maxSurge 2',
    set: R5('99%', 3, 2),
    pods: times(5, ready('old')),
    expected: { scaleUpNum: 1, useSurge: 1, updateNum: 1, updateMaxUnavailable: 3, scaleUpLimit: 1 },
  },
  {
    name: 'partition 99%, maxUnavailable 40%, maxSurge 30%',
    set: R5('99%', '40%', '30%'),
    pods: times(5, ready('old')),
    expected: { scaleUpNum: 1, useSurge: 1, updateNum: 1, updateMaxUnavailable: 2, scaleUpLimit: 1 },
  },
  {
    name: 'partition 99%, surge pod created, scale in one old pod',
    set: R5('99%', '40%', '30%'),
    pods: [...times(5, ready('old')), notReady('new')],
    expected: { scaleDownNum: 1, scaleDownNumOldRevision: 1, deleteReadyLimit: 2 },
  },
  {
    name: 'revision consistent: partition does not matter',
    set: R5(3, 1, 0),
    pods: times(5, ready('new')),
    consistent: true,
    expected: {},
  },
  {
    name: 'rollback with the gate: partition 4, 4 new 1 old',
    set: { replicas: 5, partition: 4, maxUnavailable: 2, maxSurge: 0 },
    pods: [...times(4, ready('new')), ready('old')],
    rollback: true,
    expected: { updateNum: -3, updateMaxUnavailable: 2 },
  },
  {
    name: 'no rollback without the gate',
    set: { replicas: 5, partition: 4, maxUnavailable: 1, maxSurge: 0 },
    pods: [...times(4, ready('new')), ready('old')],
    expected: {},
  },
  {
    name: 'scaleStrategy.maxUnavailable 2 limits scale-up from 0',
    set: { replicas: 5, partition: 0, maxUnavailable: 1, maxSurge: 0, scaleMaxUnavailable: 2 },
    pods: [],
    expected: { scaleUpNum: 5, scaleUpLimit: 2 },
  },
  {
    name: 'scaleStrategy.maxUnavailable 2 with one pod not ready',
    set: { replicas: 6, partition: 0, maxUnavailable: 1, maxSurge: 0, scaleMaxUnavailable: 2 },
    pods: [ready('new'), ready('new'), notReady('new')],
    expected: { scaleUpNum: 3, scaleUpLimit: 1 },
  },
  {
    name: 'scaleStrategy.maxUnavailable 2 with two pods not ready',
    set: { replicas: 6, partition: 0, maxUnavailable: 1, maxSurge: 0, scaleMaxUnavailable: 2 },
    pods: [ready('new'), notReady('new'), notReady('new')],
    expected: { scaleUpNum: 3, scaleUpLimit: 0 },
  },
  {
    name: 'a PreparingDelete pod still counts towards replicas',
    set: R5(0, 1, 0),
    pods: [['new', 'PreparingDelete', true], ...times(4, ready('new'))],
    expected: {},
  },
  {
    name: 'excludePreparingDelete: a PreparingDelete pod is replaced while it waits',
    set: R5(0, 1, 0),
    pods: [['new', 'PreparingDelete', true], ...times(4, ready('new'))],
    excludePreparingDelete: true,
    expected: { scaleUpNum: 1, scaleUpLimit: 1 },
  },
  {
    name: 'paused: maxSurge counts as 0',
    set: { ...R5(0, 0, 3), paused: true },
    pods: times(5, ready('old')),
    expected: { updateNum: 5, updateMaxUnavailable: 0 },
  },
  {
    name: 'scale down 5 to 3',
    set: { replicas: 3, partition: 0, maxUnavailable: 1, maxSurge: 0 },
    pods: times(5, ready('new')),
    consistent: true,
    expected: { scaleDownNum: 2, deleteReadyLimit: 3 },
  },
];

describe('calculateDiffs (OpenKruise calculateDiffsWithExpectation vectors)', () => {
  it.each(CASES)('$name', (c) => {
    const cs = cloneSet(c.set);
    const pods = c.pods.map(pod);
    const result = calculateDiffs({
      cs,
      strategy: resolveStrategy(cs),
      pods,
      isUpdated: (p) => p.metadata?.labels?.['controller-revision-hash'] === 'new',
      currentRevision: c.consistent === true ? 'new' : 'old',
      updateRevision: 'new',
      partitionRollback: c.rollback === true,
      excludePreparingDelete: c.excludePreparingDelete === true,
      now: NOW,
    });
    expect(result).toEqual({ ...ZERO, ...c.expected });
  });
});
