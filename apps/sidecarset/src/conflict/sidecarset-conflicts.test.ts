import { describe, expect, it } from 'vitest';

import { sidecarSetSchema } from '@kruise-ts/api';
import type { LabelSelector, SidecarSet, SidecarSetInput } from '@kruise-ts/api';

import {
  conflictsBetween,
  resolveInjectionConflicts,
  selectorsMayOverlap,
  sidecarSetsMayOverlap,
  yieldingConflicts,
} from './sidecarset-conflicts.ts';

function set(name: string, created: string, spec: Partial<SidecarSetInput['spec']>): SidecarSet {
  return sidecarSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name, creationTimestamp: created },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: `${name}-c`, image: 'x' }], ...spec },
  });
}

describe('selectorsMayOverlap', () => {
  const cases: readonly { name: string; a: LabelSelector; b: LabelSelector; expected: boolean }[] = [
    { name: 'same labels', a: { matchLabels: { app: 'web' } }, b: { matchLabels: { app: 'web' } }, expected: true },
    {
      name: 'different value of one key',
      a: { matchLabels: { app: 'web' } },
      b: { matchLabels: { app: 'db' } },
      expected: false,
    },
    {
      name: 'different keys',
      a: { matchLabels: { app: 'web' } },
      b: { matchLabels: { tier: 'front' } },
      expected: true,
    },
    {
      name: 'In sharing a value',
      a: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] },
      b: { matchLabels: { app: 'api' } },
      expected: true,
    },
    {
      name: 'In disjoint',
      a: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
      b: { matchExpressions: [{ key: 'app', operator: 'In', values: ['db'] }] },
      expected: false,
    },
    {
      name: 'required but DoesNotExist',
      a: { matchLabels: { canary: 'true' } },
      b: { matchExpressions: [{ key: 'canary', operator: 'DoesNotExist' }] },
      expected: false,
    },
    {
      name: 'required value excluded by NotIn',
      a: { matchLabels: { canary: 'true' } },
      b: { matchExpressions: [{ key: 'canary', operator: 'NotIn', values: ['true'] }] },
      expected: false,
    },
    {
      name: 'NotIn another value',
      a: { matchLabels: { canary: 'true' } },
      b: { matchExpressions: [{ key: 'canary', operator: 'NotIn', values: ['false'] }] },
      expected: true,
    },
  ];
  it.each(cases)('$name: $expected', ({ a, b, expected }) => {
    expect(selectorsMayOverlap(a, b)).toBe(expected);
    expect(selectorsMayOverlap(b, a)).toBe(expected);
  });

  it('needs the namespace scopes to meet', () => {
    const a = set('a', '2026-01-01T00:00:00Z', { namespace: 'one' });
    expect(sidecarSetsMayOverlap(a, set('b', '2026-01-01T00:00:00Z', { namespace: 'two' }))).toBe(false);
    expect(sidecarSetsMayOverlap(a, set('b', '2026-01-01T00:00:00Z', {}))).toBe(true);
  });
});

describe('conflictsBetween', () => {
  it('finds shared container and init container names, differing volumes, and overwritten annotation keys; ignores equal volumes and Retain', () => {
    const older = set('old', '2026-01-01T00:00:00Z', {
      containers: [{ name: 'proxy', image: 'envoy:1' }],
      initContainers: [{ name: 'setup', image: 'init:1' }],
      volumes: [
        { name: 'same', emptyDir: {} },
        { name: 'differs', emptyDir: {} },
      ],
      patchPodMetadata: [
        { annotations: { 'a/overwritten': 'x', 'a/retained': 'y', 'a/merged': '{}' }, patchPolicy: 'Overwrite' },
      ],
    });
    const newer = set('new', '2026-02-01T00:00:00Z', {
      containers: [
        { name: 'proxy', image: 'envoy:2' },
        { name: 'other', image: 'x' },
      ],
      initContainers: [{ name: 'setup', image: 'init:2' }],
      volumes: [
        { name: 'same', emptyDir: {} },
        { name: 'differs', hostPath: { path: '/tmp' } },
      ],
      patchPodMetadata: [
        { annotations: { 'a/overwritten': 'z' }, patchPolicy: 'MergePatchJson' },
        { annotations: { 'a/retained': 'w' }, patchPolicy: 'Retain' },
      ],
    });
    expect(conflictsBetween(newer, older).map((conflict) => conflict.field)).toEqual([
      'spec.containers[name=proxy]',
      'spec.initContainers[name=setup]',
      'spec.volumes[name=differs]',
      'spec.patchPodMetadata.annotations[a/overwritten]',
    ]);
    expect(conflictsBetween(newer, older).every((conflict) => conflict.with === 'old')).toBe(true);
  });

  it('makes only the younger SidecarSet yield, and only to sets that may select the same pods', () => {
    const older = set('old', '2026-01-01T00:00:00Z', { containers: [{ name: 'proxy', image: 'envoy:1' }] });
    const newer = set('new', '2026-02-01T00:00:00Z', { containers: [{ name: 'proxy', image: 'envoy:2' }] });
    const elsewhere = set('elsewhere', '2026-03-01T00:00:00Z', {
      selector: { matchLabels: { app: 'db' } },
      containers: [{ name: 'proxy', image: 'envoy:3' }],
    });
    expect(yieldingConflicts(older, [older, newer, elsewhere])).toEqual([]);
    expect(yieldingConflicts(newer, [older, newer, elsewhere]).map((conflict) => conflict.with)).toEqual(['old']);
    expect(yieldingConflicts(elsewhere, [older, newer, elsewhere])).toEqual([]);
  });
});

describe('resolveInjectionConflicts', () => {
  it('keeps the older of two conflicting sets for a pod and says which was skipped and why', () => {
    const older = set('b-old', '2026-01-01T00:00:00Z', { containers: [{ name: 'proxy', image: 'envoy:1' }] });
    const newer = set('a-new', '2026-02-01T00:00:00Z', { containers: [{ name: 'proxy', image: 'envoy:2' }] });
    const unrelated = set('c', '2026-03-01T00:00:00Z', { containers: [{ name: 'logger', image: 'busybox' }] });
    const result = resolveInjectionConflicts([newer, older, unrelated]);
    expect(result.kept.map((kept) => kept.metadata.name)).toEqual(['b-old', 'c']);
    expect(result.warnings).toEqual([
      'SidecarSet a-new spec.containers[name=proxy] conflicts with SidecarSet b-old: both inject a container of this name; its sidecars were not injected',
    ]);
  });
});
