import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/controller-runtime';

import { checkNodeFitness } from './node-fitness.ts';
import { assignedNode, pinnedToNode } from './pod-node.ts';

type PodSpec = NonNullable<Pod['spec']>;
type NodeSelectorTerm = NonNullable<
  NonNullable<NonNullable<PodSpec['affinity']>['nodeAffinity']>['requiredDuringSchedulingIgnoredDuringExecution']
>['nodeSelectorTerms'][number];

const spec = (extra: Partial<PodSpec> = {}): PodSpec => ({ containers: [{ name: 'c', image: 'busybox' }], ...extra });
const requiring = (...nodeSelectorTerms: NodeSelectorTerm[]): Partial<PodSpec> => ({
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } },
});
const nameIn = (...values: string[]): NodeSelectorTerm => ({
  matchFields: [{ key: 'metadata.name', operator: 'In', values }],
});
const PINNED_TERMS = (node: string) => [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }];

describe('assignedNode', () => {
  it.each<[string, Partial<PodSpec> | undefined, string | undefined]>([
    ['no spec', undefined, undefined],
    ['no node at all', {}, undefined],
    ['spec.nodeName', { nodeName: 'n1' }, 'n1'],
    ['an empty nodeName falls through to the affinity', { nodeName: '', ...requiring(nameIn('n2')) }, 'n2'],
    ['nodeName wins over the affinity', { nodeName: 'n1', ...requiring(nameIn('n2')) }, 'n1'],
    ['a metadata.name In [x] field term', requiring(nameIn('n2')), 'n2'],
    [
      'the first such term of several',
      requiring({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, nameIn('n3'), nameIn('n4')),
      'n3',
    ],
    [
      'a later requirement of a term',
      requiring({
        matchFields: [
          { key: 'metadata.name', operator: 'NotIn', values: ['x'] },
          { key: 'metadata.name', operator: 'In', values: ['n5'] },
        ],
      }),
      'n5',
    ],
    ['In with two values is not an assignment', requiring(nameIn('n1', 'n2')), undefined],
    [
      'NotIn is not an assignment',
      requiring({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1'] }] }),
      undefined,
    ],
    [
      'another field is not',
      requiring({ matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['n1'] }] }),
      undefined,
    ],
    [
      'a label expression is not',
      requiring({ matchExpressions: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }),
      undefined,
    ],
    [
      'preferred affinity is not',
      {
        affinity: {
          nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: nameIn('n1') }] },
        },
      },
      undefined,
    ],
  ])('%s', (_name, extra, expected) => {
    const pod: Pod = { metadata: { name: 'p' }, ...(extra === undefined ? {} : { spec: spec(extra) }) };
    expect(assignedNode(deepFreeze(pod))).toBe(expected);
  });
});

describe('pinnedToNode', () => {
  const podAffinity = {
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { topologyKey: 'zone', labelSelector: { matchLabels: { app: 'x' } } },
      ],
    },
  };
  const preferred = [
    { weight: 5, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } },
  ];
  it.each<[string, Partial<PodSpec>, PodSpec['affinity']]>([
    [
      'no affinity',
      {},
      { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: PINNED_TERMS('n1') } } },
    ],
    [
      'other affinity kinds kept',
      { affinity: podAffinity },
      {
        ...podAffinity,
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: PINNED_TERMS('n1') } },
      },
    ],
    [
      'required terms replaced, preferred ones kept',
      {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: preferred,
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, nameIn('n9')],
            },
          },
        },
      },
      {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: preferred,
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: PINNED_TERMS('n1') },
        },
      },
    ],
  ])('%s', (_name, extra, affinity) => {
    const input = deepFreeze(spec({ ...extra, tolerations: [{ operator: 'Exists' }] }));
    const pinned = pinnedToNode(input, 'n1');
    expect(pinned.affinity).toEqual(affinity);
    expect(pinned.containers).toEqual(input.containers);
    expect(pinned.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(pinned.nodeName).toBeUndefined();
  });

  it('returns a copy: changing it leaves the template alone', () => {
    const template = deepFreeze(spec(requiring(nameIn('n9'))));
    const pinned = pinnedToNode(template, 'n1');
    pinned.containers[0] = { name: 'changed' };
    expect(template.containers[0]?.name).toBe('c');
    expect(template.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([
      nameIn('n9'),
    ]);
  });

  it('round-trips: the pinned pod is assigned to, and fits, its node only', () => {
    const pod: Pod = {
      metadata: { name: 'p' },
      spec: pinnedToNode(spec(requiring({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] })), 'n1'),
    };
    const node = (name: string) => ({
      metadata: { name, labels: { zone: 'a' } },
      status: { allocatable: { pods: '10' } },
    });
    expect(assignedNode(pod)).toBe('n1');
    expect(checkNodeFitness(pod, node('n1'))).toEqual({ fits: true, reasons: [] });
    expect(checkNodeFitness(pod, node('n2'))).toEqual({
      fits: false,
      reasons: ["node(s) didn't match Pod's node affinity/selector"],
    });
  });
});
