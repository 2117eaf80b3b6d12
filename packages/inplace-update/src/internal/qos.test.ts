import { describe, expect, it } from 'vitest';

import type { PodTemplateSpec } from '@kruise-ts/api';

import { podQosClass } from './qos.ts';
import type { QosClass } from './qos.ts';

type Resources = NonNullable<NonNullable<PodTemplateSpec['spec']>['containers'][number]['resources']>;

const spec = (...resources: Resources[]): PodTemplateSpec['spec'] => ({
  containers: resources.map((r, i) => ({ name: `c${String(i)}`, resources: r })),
});

describe('podQosClass', () => {
  it.each<[string, PodTemplateSpec['spec'], QosClass]>([
    ['no resources', spec({}), 'BestEffort'],
    ['only other resources', spec({ requests: { 'ephemeral-storage': '1Gi' } }), 'BestEffort'],
    ['zero amounts', spec({ requests: { cpu: '0' }, limits: { memory: '0' } }), 'BestEffort'],
    ['requests only', spec({ requests: { cpu: '100m' } }), 'Burstable'],
    [
      'limits equal requests',
      spec({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1000m', memory: '1024Mi' } }),
      'Guaranteed',
    ],
    [
      'limits only (requests are not defaulted in templates)',
      spec({ limits: { cpu: '1', memory: '1Gi' } }),
      'Burstable',
    ],
    [
      'limits above requests',
      spec({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2', memory: '1Gi' } }),
      'Burstable',
    ],
    [
      'one container without memory limit',
      spec(
        { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } },
        { requests: { cpu: '1' }, limits: { cpu: '1' } },
      ),
      'Burstable',
    ],
    [
      'init containers count',
      {
        containers: [
          { name: 'a', resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } },
        ],
        initContainers: [{ name: 'i', resources: { requests: { cpu: '1' } } }],
      },
      'Burstable',
    ],
  ])('%s → %s', (_name, podSpec, expected) => {
    expect(podQosClass(podSpec)).toBe(expected);
  });

  it('rejects an invalid quantity', () => {
    expect(() => podQosClass(spec({ requests: { cpu: 'lots' } }))).toThrow(RangeError);
  });
});
