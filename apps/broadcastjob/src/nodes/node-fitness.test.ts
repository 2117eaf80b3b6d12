import { describe, expect, it } from 'vitest';

import type { Node, Pod } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/controller-runtime';

import { checkNodeFitness, podRequests } from './node-fitness.ts';

type PodSpec = NonNullable<Pod['spec']>;
type NodeSelectorTerm = NonNullable<
  NonNullable<NonNullable<PodSpec['affinity']>['nodeAffinity']>['requiredDuringSchedulingIgnoredDuringExecution']
>['nodeSelectorTerms'][number];
type Resources = Record<string, string>;

const AFFINITY = "node(s) didn't match Pod's node affinity/selector";
const ENOUGH: Resources = { cpu: '4', memory: '8Gi', 'ephemeral-storage': '100Gi', pods: '110' };

const node = (
  name: string,
  extra: { labels?: Record<string, string>; spec?: Node['spec']; allocatable?: Resources } = {},
): Node => ({
  metadata: { name, ...(extra.labels === undefined ? {} : { labels: extra.labels }) },
  ...(extra.spec === undefined ? {} : { spec: extra.spec }),
  status: { allocatable: extra.allocatable ?? ENOUGH },
});
const pod = (spec: Partial<PodSpec> = {}): Pod => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});
const container = (name: string, requests: Resources, restartPolicy?: string) => ({
  name,
  image: 'busybox',
  resources: { requests },
  ...(restartPolicy === undefined ? {} : { restartPolicy }),
});
const requiring = (...nodeSelectorTerms: NodeSelectorTerm[]): Partial<PodSpec> => ({
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } },
});
const fits = (p: Pod, n: Node) => checkNodeFitness(deepFreeze(p), deepFreeze(n));

describe('checkNodeFitness: nodeName', () => {
  it.each([
    ['no nodeName', {}, true],
    ['the node', { nodeName: 'n1' }, true],
    ['another node', { nodeName: 'n2' }, false],
  ] as const)('%s', (_name, spec, expected) => {
    const result = fits(pod(spec), node('n1'));
    expect(result).toEqual(
      expected
        ? { fits: true, reasons: [] }
        : { fits: false, reasons: ["node(s) didn't match the requested node name"] },
    );
  });
});

describe('checkNodeFitness: nodeSelector and required node affinity', () => {
  const labels = { zone: 'a', disk: 'ssd', cores: '16', bad: 'x1' };
  const expr = (key: string, operator: string, values?: string[]) => ({
    matchExpressions: [{ key, operator, ...(values === undefined ? {} : { values }) }],
  });
  const field = (operator: string, values: string[], key = 'metadata.name') => ({
    matchFields: [{ key, operator, values }],
  });
  it.each<[string, Partial<PodSpec>, boolean]>([
    ['nothing required', {}, true],
    ['nodeSelector matching', { nodeSelector: { zone: 'a', disk: 'ssd' } }, true],
    ['nodeSelector with another value', { nodeSelector: { zone: 'b' } }, false],
    ['nodeSelector on a missing label', { nodeSelector: { gpu: 'true' } }, false],
    [
      'nodeSelector matching but affinity not',
      { nodeSelector: { zone: 'a' }, ...requiring(expr('zone', 'In', ['b'])) },
      false,
    ],
    ['In', requiring(expr('zone', 'In', ['b', 'a'])), true],
    ['In, other values', requiring(expr('zone', 'In', ['b'])), false],
    ['In, missing label', requiring(expr('gpu', 'In', ['a'])), false],
    ['NotIn', requiring(expr('zone', 'NotIn', ['b'])), true],
    ['NotIn, listed', requiring(expr('zone', 'NotIn', ['a'])), false],
    ['NotIn, missing label', requiring(expr('gpu', 'NotIn', ['a'])), true],
    ['Exists', requiring(expr('disk', 'Exists')), true],
    ['Exists, missing', requiring(expr('gpu', 'Exists')), false],
    ['DoesNotExist', requiring(expr('gpu', 'DoesNotExist')), true],
    ['DoesNotExist, present', requiring(expr('disk', 'DoesNotExist')), false],
    ['Gt', requiring(expr('cores', 'Gt', ['8'])), true],
    ['Gt, equal', requiring(expr('cores', 'Gt', ['16'])), false],
    ['Lt', requiring(expr('cores', 'Lt', ['32'])), true],
    ['Lt, greater', requiring(expr('cores', 'Lt', ['4'])), false],
    ['Gt on a label that is not an integer', requiring(expr('bad', 'Gt', ['0'])), false],
    ['Gt on a missing label', requiring(expr('gpu', 'Gt', ['0'])), false],
    ['Gt with a value that is not an integer', requiring(expr('cores', 'Gt', ['eight'])), false],
    ['Gt with two values', requiring(expr('cores', 'Gt', ['1', '2'])), false],
    ['In without values', requiring(expr('zone', 'In', [])), false],
    ['Exists with values', requiring(expr('disk', 'Exists', ['ssd'])), false],
    ['an invalid label value in In', requiring(expr('zone', 'In', ['a', 'not a value!'])), false],
    ['an unknown operator', requiring(expr('zone', 'Equals', ['a'])), false],
    [
      'expressions of a term are ANDed',
      requiring({
        matchExpressions: [
          { key: 'zone', operator: 'In', values: ['a'] },
          { key: 'disk', operator: 'In', values: ['hdd'] },
        ],
      }),
      false,
    ],
    ['terms are ORed', requiring(expr('zone', 'In', ['b']), expr('disk', 'In', ['ssd'])), true],
    ['an unparsable term does not spoil another', requiring(expr('zone', 'Bogus'), expr('disk', 'Exists')), true],
    ['no terms matches nothing', requiring(), false],
    ['a term without requirements matches nothing', requiring({}), false],
    ['an empty term next to a matching one', requiring({ matchExpressions: [] }, expr('zone', 'Exists')), true],
    ['matchFields metadata.name In', requiring(field('In', ['n1'])), true],
    ['matchFields metadata.name In another', requiring(field('In', ['n2'])), false],
    ['matchFields metadata.name NotIn another', requiring(field('NotIn', ['n2'])), true],
    ['matchFields metadata.name NotIn itself', requiring(field('NotIn', ['n1'])), false],
    ['matchFields In with two values', requiring(field('In', ['n1', 'n2'])), false],
    ['matchFields Exists', requiring({ matchFields: [{ key: 'metadata.name', operator: 'Exists' }] }), false],
    ['matchFields on another field', requiring(field('In', ['x'], 'metadata.uid')), false],
    ['matchFields NotIn on another field', requiring(field('NotIn', ['x'], 'metadata.uid')), true],
    [
      'matchFields and matchExpressions are ANDed',
      requiring({ ...field('In', ['n1']), ...expr('zone', 'In', ['b']) }),
      false,
    ],
    [
      'matchFields and matchExpressions both match',
      requiring({ ...field('In', ['n1']), ...expr('zone', 'In', ['a']) }),
      true,
    ],
  ])('%s', (_name, spec, expected) => {
    const result = fits(pod(spec), node('n1', { labels }));
    expect(result).toEqual(expected ? { fits: true, reasons: [] } : { fits: false, reasons: [AFFINITY] });
  });

  it('ignores preferred node affinity', () => {
    const preferred: Partial<PodSpec> = {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 1, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] } },
          ],
        },
      },
    };
    expect(fits(pod(preferred), node('n1', { labels })).fits).toBe(true);
  });
});

describe('checkNodeFitness: taints and tolerations', () => {
  const gpu = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
  const untolerated = (key: string, value = '') => ({
    fits: false,
    reasons: [`node(s) had untolerated taint {${key}: ${value}}`],
  });
  const zoneA = { key: 'zone', value: 'a', effect: 'NoSchedule' };
  // The last column: the taint reported as untolerated, undefined when the pod fits.
  it.each<
    [
      string,
      NonNullable<NonNullable<Node['spec']>['taints']>,
      PodSpec['tolerations'],
      { key: string; value?: string } | undefined,
    ]
  >([
    ['no taints', [], undefined, undefined],
    ['NoSchedule untolerated', [gpu], undefined, gpu],
    ['NoExecute untolerated', [{ ...gpu, effect: 'NoExecute' }], undefined, gpu],
    ['PreferNoSchedule is not a filter', [{ ...gpu, effect: 'PreferNoSchedule' }], undefined, undefined],
    [
      'Equal with the value',
      [gpu],
      [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
      undefined,
    ],
    ['empty operator is Equal', [gpu], [{ key: 'dedicated', value: 'gpu' }], undefined],
    ['Equal with another value', [gpu], [{ key: 'dedicated', operator: 'Equal', value: 'cpu' }], gpu],
    [
      'Equal without a value on a taint without one',
      [{ key: 'k', effect: 'NoSchedule' }],
      [{ key: 'k', operator: 'Equal' }],
      undefined,
    ],
    ['Exists on the key', [gpu], [{ key: 'dedicated', operator: 'Exists' }], undefined],
    ['Exists on another key', [gpu], [{ key: 'other', operator: 'Exists' }], gpu],
    [
      'empty key with Exists tolerates everything',
      [gpu, { key: 'x', effect: 'NoExecute' }],
      [{ operator: 'Exists' }],
      undefined,
    ],
    ['another effect', [gpu], [{ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }], gpu],
    [
      'empty effect matches every effect',
      [{ ...gpu, effect: 'NoExecute' }],
      [{ key: 'dedicated', operator: 'Exists' }],
      undefined,
    ],
    ['an unknown operator tolerates nothing', [gpu], [{ key: 'dedicated', operator: 'Gt', value: 'gpu' }], gpu],
    ['every taint must be tolerated', [gpu, zoneA], [{ key: 'dedicated', operator: 'Exists' }], zoneA],
  ])('%s', (...[, taints, tolerations, expected]) => {
    const result = fits(pod(tolerations === undefined ? {} : { tolerations }), node('n1', { spec: { taints } }));
    expect(result).toEqual(
      expected === undefined ? { fits: true, reasons: [] } : untolerated(expected.key, expected.value),
    );
  });

  it('names the first untolerated taint, with an empty value as the scheduler prints it', () => {
    expect(
      fits(
        pod(),
        node('n1', { spec: { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }, gpu] } }),
      ),
    ).toEqual(untolerated('node.kubernetes.io/not-ready'));
  });
});

describe('checkNodeFitness: unschedulable nodes', () => {
  it.each<[string, PodSpec['tolerations'], boolean]>([
    ['no toleration', undefined, false],
    [
      'tolerates the unschedulable taint',
      [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
      true,
    ],
    ['tolerates everything', [{ operator: 'Exists' }], true],
    [
      'tolerates it for NoExecute only',
      [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }],
      false,
    ],
  ])('%s', (_name, tolerations, expected) => {
    const result = fits(
      pod(tolerations === undefined ? {} : { tolerations }),
      node('n1', { spec: { unschedulable: true } }),
    );
    expect(result).toEqual(
      expected ? { fits: true, reasons: [] } : { fits: false, reasons: ['node(s) were unschedulable'] },
    );
  });
});

describe('checkNodeFitness: resources', () => {
  it.each<[string, Partial<PodSpec>, Resources, string[]]>([
    ['no requests on an empty node', {}, { pods: '110' }, []],
    [
      'requests within allocatable',
      { containers: [container('a', { cpu: '1', memory: '1Gi' }), container('b', { cpu: '500m', memory: '512Mi' })] },
      { cpu: '1500m', memory: '1536Mi', pods: '1' },
      [],
    ],
    [
      'containers are summed',
      { containers: [container('a', { cpu: '1' }), container('b', { cpu: '1' })] },
      { ...ENOUGH, cpu: '1999m' },
      ['Insufficient cpu'],
    ],
    ['no pods allowed', {}, { ...ENOUGH, pods: '0' }, ['Too many pods']],
    [
      'no allocatable at all',
      { containers: [container('a', { cpu: '1' })] },
      {},
      ['Too many pods', 'Insufficient cpu'],
    ],
    [
      'every shortage is named, in the scheduler order',
      {
        containers: [
          container('a', {
            cpu: '5',
            memory: '9Gi',
            'ephemeral-storage': '1Ti',
            'example.com/gpu': '1',
            'example.com/fpga': '2',
          }),
        ],
      },
      { ...ENOUGH, 'example.com/fpga': '1' },
      [
        'Insufficient cpu',
        'Insufficient memory',
        'Insufficient ephemeral-storage',
        'Insufficient example.com/fpga',
        'Insufficient example.com/gpu',
      ],
    ],
    [
      'extended resources within allocatable',
      { containers: [container('a', { 'example.com/gpu': '2' })] },
      { ...ENOUGH, 'example.com/gpu': '2' },
      [],
    ],
    [
      'hugepages',
      { containers: [container('a', { 'hugepages-2Mi': '4Mi' })] },
      { ...ENOUGH, 'hugepages-2Mi': '2Mi' },
      ['Insufficient hugepages-2Mi'],
    ],
    [
      'a zero request of a missing extended resource',
      { containers: [container('a', { 'example.com/gpu': '0' })] },
      ENOUGH,
      [],
    ],
    ['unknown unprefixed names are not tracked', { containers: [container('a', { widgets: '5' })] }, ENOUGH, []],
    [
      'the pods resource of a pod is not a request',
      { containers: [container('a', { pods: '5' })] },
      { ...ENOUGH, pods: '1' },
      [],
    ],
    [
      'init containers: the largest counts when it exceeds the sum',
      {
        initContainers: [container('i1', { cpu: '3' }), container('i2', { cpu: '1' })],
        containers: [container('a', { cpu: '1' }), container('b', { cpu: '1' })],
      },
      { ...ENOUGH, cpu: '2999m' },
      ['Insufficient cpu'],
    ],
    [
      'init containers: the sum counts when it exceeds them',
      {
        initContainers: [container('i1', { cpu: '1' })],
        containers: [container('a', { cpu: '1' }), container('b', { cpu: '1' })],
      },
      { ...ENOUGH, cpu: '2' },
      [],
    ],
    [
      'overhead is added',
      { containers: [container('a', { cpu: '1' })], overhead: { cpu: '250m' } },
      { ...ENOUGH, cpu: '1200m' },
      ['Insufficient cpu'],
    ],
    [
      'cpu rounds up to millicores on both sides (1.5m vs 1.2m fits, as Go compares)',
      { containers: [container('a', { cpu: '0.0015' })] },
      { ...ENOUGH, cpu: '0.0012' },
      [],
    ],
    [
      'memory rounds up to bytes',
      { containers: [container('a', { memory: '1001m' })] },
      { ...ENOUGH, memory: '1' },
      ['Insufficient memory'],
    ],
    [
      'binary and decimal suffixes compare exactly',
      { containers: [container('a', { memory: '1Gi' })] },
      { ...ENOUGH, memory: '1073741823' },
      ['Insufficient memory'],
    ],
    [
      'absurd quantities do not hang',
      { containers: [container('a', { memory: '1e2000000000' })] },
      { ...ENOUGH, memory: '1e30' },
      ['Insufficient memory'],
    ],
  ])('%s', (...[, spec, allocatable, reasons]) => {
    expect(fits(pod(spec), node('n1', { allocatable }))).toEqual(
      reasons.length === 0 ? { fits: true, reasons: [] } : { fits: false, reasons },
    );
  });

  it('reads quantities a template stores as numbers or null', () => {
    const spec = {
      containers: [{ name: 'a', resources: { requests: { cpu: 0.5, memory: null } } }],
    } as unknown as PodSpec;
    expect(fits(pod(spec), node('n1', { allocatable: { ...ENOUGH, cpu: '499m' } }))).toEqual({
      fits: false,
      reasons: ['Insufficient cpu'],
    });
  });

  it('checks resources only after the other checks pass', () => {
    expect(fits(pod({ nodeName: 'n2', containers: [container('a', { cpu: '9' })] }), node('n1'))).toEqual({
      fits: false,
      reasons: ["node(s) didn't match the requested node name"],
    });
  });

  it('does not change the pod or the node (both frozen)', () => {
    const frozenPod = deepFreeze(
      pod({ tolerations: [{ operator: 'Exists' }], containers: [container('a', { cpu: '1' })] }),
    );
    const frozenNode = deepFreeze(
      node('n1', { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }], unschedulable: true } }),
    );
    expect(checkNodeFitness(frozenPod, frozenNode).fits).toBe(true);
  });
});

describe('podRequests', () => {
  const cpu = (spec: Partial<PodSpec>): string => {
    const value = podRequests(pod(spec)).get('cpu');
    return value === undefined ? 'none' : `${String(value.mantissa)}e${String(value.exponent)}`;
  };
  it.each<[string, Partial<PodSpec>, string]>([
    ['no requests', {}, 'none'],
    ['sum of containers', { containers: [container('a', { cpu: '1' }), container('b', { cpu: '250m' })] }, '1250e-3'],
    [
      'max of init containers and the sum',
      { initContainers: [container('i', { cpu: '2' })], containers: [container('a', { cpu: '1' })] },
      '2e0',
    ],
    // Sidecars (restartPolicy Always) run beside the containers and beside the init containers after them.
    [
      'a sidecar adds to the containers',
      { initContainers: [container('s', { cpu: '500m' }, 'Always')], containers: [container('a', { cpu: '1' })] },
      '1500e-3',
    ],
    [
      'an init container after a sidecar runs beside it',
      {
        initContainers: [container('s', { cpu: '1' }, 'Always'), container('i', { cpu: '2' })],
        containers: [container('a', { cpu: '1' })],
      },
      '3e0',
    ],
    [
      'an init container before a sidecar does not',
      {
        initContainers: [container('i', { cpu: '2' }), container('s', { cpu: '1' }, 'Always')],
        containers: [container('a', { cpu: '500m' })],
      },
      '2e0',
    ],
    ['overhead on top', { containers: [container('a', { cpu: '1' })], overhead: { cpu: '100m' } }, '1100e-3'],
  ])('%s', (_name, spec, expected) => {
    expect(cpu(spec)).toBe(expected);
  });
});
