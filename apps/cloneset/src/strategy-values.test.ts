import { cloneSetSchema } from '@kruise-ts/api';
import type { IntOrString } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';

import { partitionReplicas, resolveStrategy } from './strategy-values.ts';

describe('partitionReplicas (OpenKruise CalculatePartitionReplicas)', () => {
  it.each<[IntOrString | undefined, number, number]>([
    [undefined, 5, 0],
    [3, 5, 3],
    [7, 5, 5],
    ['99%', 5, 4],
    ['100%', 5, 5],
    ['15%', 10, 2],
    ['50%', 1, 1],
    ['35%', 10, 4],
    ['95%', 10, 9],
    ['12.5%', 8, 1],
    [0, 0, 0],
  ])('partition %j of %i replicas keeps %i old pods', (partition, replicas, expected) => {
    expect(partitionReplicas(partition, replicas)).toBe(expected);
  });
});

describe('resolveStrategy', () => {
  const cs = (updateStrategy: object, scaleStrategy?: object): Parameters<typeof resolveStrategy>[0] =>
    cloneSetSchema.parse({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'x' },
      spec: {
        replicas: 10,
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } },
        updateStrategy,
        ...(scaleStrategy === undefined ? {} : { scaleStrategy }),
      },
    });

  it('defaults maxUnavailable to 20% rounded up without surge', () => {
    expect(resolveStrategy(cs({}))).toMatchObject({
      replicas: 10,
      partition: 0,
      maxSurge: 0,
      maxUnavailable: 2,
      scaleMaxUnavailable: Number.MAX_SAFE_INTEGER,
    });
  });

  it('rounds maxUnavailable down when there is a surge, and ignores the surge while paused', () => {
    expect(resolveStrategy(cs({ maxUnavailable: '25%', maxSurge: '10%' }))).toMatchObject({
      maxSurge: 1,
      maxUnavailable: 2,
    });
    expect(resolveStrategy(cs({ maxUnavailable: '25%', maxSurge: '10%', paused: true }))).toMatchObject({
      maxSurge: 0,
      maxUnavailable: 3,
      paused: true,
    });
  });

  it('resolves fractional percentages instead of silently using 0 (OpenKruise bug)', () => {
    expect(resolveStrategy(cs({ maxUnavailable: '12.5%' }))).toMatchObject({ maxUnavailable: 2 });
  });

  it('rounds scaleStrategy.maxUnavailable up', () => {
    expect(resolveStrategy(cs({}, { maxUnavailable: '15%' }))).toMatchObject({ scaleMaxUnavailable: 2 });
  });
});
