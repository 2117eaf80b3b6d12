import { describe, expect, it } from 'vitest';

import { applyStrategicMergePatch } from './strategic-merge-patch.ts';

const pod = {
  metadata: { name: 'p', labels: { app: 'web', old: 'x' }, finalizers: ['a'] },
  spec: {
    containers: [
      { name: 'main', image: 'nginx:1.25' },
      { name: 'side', image: 'busybox' },
    ],
    readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
  },
  status: {
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'InPlaceUpdateReady', status: 'True' },
    ],
  },
};

describe('applyStrategicMergePatch', () => {
  it.each<[string, object, unknown]>([
    [
      'merges maps and deletes with null',
      { metadata: { labels: { old: null, version: '2' } } },
      { ...pod.metadata, labels: { app: 'web', version: '2' } },
    ],
    [
      'merges finalizers as a set',
      { metadata: { finalizers: ['a', 'b'] } },
      { ...pod.metadata, finalizers: ['a', 'b'] },
    ],
  ])('%s', (_name, patch, expectedMetadata) => {
    expect((applyStrategicMergePatch(pod, patch as never) as typeof pod).metadata).toEqual(expectedMetadata);
  });

  it('merges containers by name, keeping the others', () => {
    const patched = applyStrategicMergePatch(pod, {
      spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
    }) as typeof pod;
    expect(patched.spec.containers).toEqual([
      { name: 'main', image: 'nginx:1.27' },
      { name: 'side', image: 'busybox' },
    ]);
  });

  it('merges conditions by type, appending new ones', () => {
    const patched = applyStrategicMergePatch(pod, {
      status: {
        conditions: [
          { type: 'InPlaceUpdateReady', status: 'False' },
          { type: 'KruisePodReady', status: 'True' },
        ],
      },
    }) as typeof pod;
    expect(patched.status.conditions).toEqual([
      { type: 'Ready', status: 'True' },
      { type: 'InPlaceUpdateReady', status: 'False' },
      { type: 'KruisePodReady', status: 'True' },
    ]);
  });

  it('deletes a list item with $patch: delete and ignores order directives', () => {
    const patched = applyStrategicMergePatch(pod, {
      spec: { containers: [{ $patch: 'delete', name: 'side' }], '$setElementOrder/containers': [{ name: 'main' }] },
    }) as typeof pod;
    expect(patched.spec.containers).toEqual([{ name: 'main', image: 'nginx:1.25' }]);
  });

  it('replaces lists without a merge key and objects marked $patch: replace', () => {
    const patched = applyStrategicMergePatch(
      { spec: { tolerations: [{ key: 'a' }], template: { a: 1, b: 2 } } },
      { spec: { tolerations: [{ key: 'b' }], template: { $patch: 'replace', c: 3 } } },
    );
    expect(patched).toEqual({ spec: { tolerations: [{ key: 'b' }], template: { c: 3 } } });
  });

  it('leaves its inputs alone', () => {
    const before = JSON.stringify(pod);
    applyStrategicMergePatch(pod, { spec: { containers: [{ name: 'main', image: 'x' }] } });
    expect(JSON.stringify(pod)).toBe(before);
  });
});
