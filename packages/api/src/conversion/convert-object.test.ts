import { describe, expect, it } from 'vitest';

import { SIDECARSET_CUSTOM_VERSION_LABEL } from '../apps/v1alpha1/sidecarset-names.ts';
import { conversionAnnotation } from './conversion-record.ts';
import type { JsonObject } from './conversion-record.ts';
import { convertObject } from './convert-object.ts';

const A = 'apps.kruise.io/v1alpha1';
const B = 'apps.kruise.io/v1beta1';

/** A small seeded generator (Park-Miller): a failing seed reproduces. */
function generator(seed: number): { chance: (p: number) => boolean; int: (n: number) => number; word: () => string } {
  let state = seed % 2_147_483_647 || 1;
  const next = (): number => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
  return {
    chance: (p) => next() < p,
    int: (n) => Math.floor(next() * n),
    word: () => ['a', 'web', 'x1', '', 'v2', 'ns-1'][Math.floor(next() * 6)] ?? 'a',
  };
}
type Gen = ReturnType<typeof generator>;

function converted(object: JsonObject, to: string): JsonObject {
  const result = convertObject(object, to);
  if (!result.ok) {
    throw new Error(result.message);
  }
  return result.object;
}

function metadata(gen: Gen, extraLabels: Record<string, string> = {}): JsonObject {
  const labels = { ...(gen.chance(0.5) ? { app: gen.word() } : {}), ...extraLabels };
  // A generation (on most stored objects) is what a record written toward v1alpha1 is stamped with.
  const generation = gen.chance(0.7) ? { generation: 1 + gen.int(3) } : {};
  return {
    name: 'n',
    uid: 'u',
    ...generation,
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
    ...(gen.chance(0.3) ? { annotations: { note: gen.word() } } : {}),
  };
}

function selector(gen: Gen): JsonObject {
  return gen.chance(0.3)
    ? { matchLabels: { 'kubernetes.io/metadata.name': gen.word() || 'n' } }
    : { matchLabels: { team: gen.word() } };
}

function sidecarSetV1alpha1(gen: Gen): JsonObject {
  const namespace = gen.chance(0.5) ? gen.word() : undefined;
  const label = gen.chance(0.4) ? { [SIDECARSET_CUSTOM_VERSION_LABEL]: gen.word() } : {};
  const spec: JsonObject = { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'c', image: 'i' }] };
  if (namespace !== undefined) {
    spec['namespace'] = namespace;
  }
  if ((namespace === undefined || namespace === '') && gen.chance(0.5)) {
    spec['namespaceSelector'] = selector(gen);
  }
  if (gen.chance(0.3)) {
    spec['unknownField'] = { kept: gen.int(5) };
  }
  return {
    apiVersion: A,
    kind: 'SidecarSet',
    metadata: metadata(gen, label),
    spec,
    ...(gen.chance(0.5) ? { status: { matchedPods: gen.int(9) } } : {}),
  };
}

function sidecarSetV1beta1(gen: Gen): JsonObject {
  const label = gen.chance(0.4) ? { [SIDECARSET_CUSTOM_VERSION_LABEL]: gen.word() } : {};
  const spec: JsonObject = { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'c', image: 'i' }] };
  if (gen.chance(0.5)) {
    spec['namespaceSelector'] = selector(gen);
  }
  if (gen.chance(0.5)) {
    spec['customVersion'] = gen.word();
  }
  return { apiVersion: B, kind: 'SidecarSet', metadata: metadata(gen, label), spec };
}

function statefulSetV1beta1(gen: Gen): JsonObject {
  const spec: JsonObject = {
    replicas: gen.int(5),
    selector: { matchLabels: { app: 'db' } },
    template: { spec: { containers: [{ name: 'c' }] } },
  };
  const only: Record<string, unknown> = {
    reserveOrdinals: [1, '3-4'],
    lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } },
    scaleStrategy: { maxUnavailable: '50%' },
    volumeClaimUpdateStrategy: { type: 'OnDelete' },
    persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' },
    ordinals: { start: gen.int(4) },
  };
  for (const [field, value] of Object.entries(only)) {
    if (gen.chance(0.5)) {
      spec[field] = value;
    }
  }
  const status: JsonObject = { replicas: 2, readyReplicas: 1 };
  if (gen.chance(0.5)) {
    status['updatedReadyReplicas'] = gen.int(3);
  }
  if (gen.chance(0.5)) {
    status['volumeClaims'] = [{ volumeClaimName: 'data', compatibleReplicas: 1, compatibleReadyReplicas: 1 }];
  }
  return { apiVersion: B, kind: 'StatefulSet', metadata: metadata(gen), spec, ...(gen.chance(0.8) ? { status } : {}) };
}

function statefulSetV1alpha1(gen: Gen): JsonObject {
  return {
    apiVersion: A,
    kind: 'StatefulSet',
    metadata: metadata(gen),
    spec: {
      replicas: gen.int(5),
      podManagementPolicy: gen.chance(0.5) ? 'Parallel' : 'OrderedReady',
      selector: { matchLabels: { app: 'db' } },
    },
  };
}

const ROUND_TRIPS = [
  { name: 'SidecarSet v1alpha1 -> v1beta1 -> v1alpha1', make: sidecarSetV1alpha1, from: A, via: B },
  { name: 'SidecarSet v1beta1 -> v1alpha1 -> v1beta1', make: sidecarSetV1beta1, from: B, via: A },
  { name: 'StatefulSet v1beta1 -> v1alpha1 -> v1beta1', make: statefulSetV1beta1, from: B, via: A },
  { name: 'StatefulSet v1alpha1 -> v1beta1 -> v1alpha1', make: statefulSetV1alpha1, from: A, via: B },
] as const;

describe('convertObject round trips (property, 2,000 seeded objects each)', () => {
  it.each(ROUND_TRIPS)('$name loses nothing and changes no input', ({ make, from, via }) => {
    for (let seed = 1; seed <= 2000; seed++) {
      const original = make(generator(seed));
      const snapshot = structuredClone(original);
      const there = converted(original, via);
      const back = converted(there, from);
      expect(original, `seed ${String(seed)}: input changed`).toEqual(snapshot);
      expect(there['apiVersion'], `seed ${String(seed)}`).toBe(via);
      expect(back, `seed ${String(seed)}: ${JSON.stringify(there)}`).toEqual(original);
    }
  });
});

describe('SidecarSet conversion (OpenKruise semantics)', () => {
  const alpha = {
    apiVersion: A,
    kind: 'SidecarSet',
    metadata: { name: 's', labels: { [SIDECARSET_CUSTOM_VERSION_LABEL]: 'v7', app: 'x' } },
    spec: { namespace: 'team-a', selector: {}, containers: [] },
  };

  it('v1alpha1 namespace becomes a kubernetes.io/metadata.name selector and the custom-version label becomes spec.customVersion', () => {
    const beta = converted(alpha, B);
    expect(beta['spec']).toEqual({
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } },
      customVersion: 'v7',
      selector: {},
      containers: [],
    });
    expect((beta['metadata'] as { labels: unknown }).labels).toEqual({ app: 'x' });
  });

  it('a v1beta1 selector edited since the conversion is not turned back into the old namespace', () => {
    const beta = converted(alpha, B);
    const edited = {
      ...beta,
      spec: { ...(beta['spec'] as JsonObject), namespaceSelector: { matchLabels: { team: 'b' } } },
    };
    const back = converted(edited, A);
    expect((back['spec'] as JsonObject)['namespace']).toBeUndefined();
    expect((back['spec'] as JsonObject)['namespaceSelector']).toEqual({ matchLabels: { team: 'b' } });
    expect(
      (back['metadata'] as { annotations: JsonObject }).annotations[conversionAnnotation('v1alpha1')],
    ).toBeUndefined();
  });

  it('a v1beta1 customVersion becomes the v1alpha1 label; an empty one writes no label', () => {
    const beta = { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's' }, spec: { customVersion: 'v9' } };
    expect((converted(beta, A)['metadata'] as { labels: unknown }).labels).toEqual({
      [SIDECARSET_CUSTOM_VERSION_LABEL]: 'v9',
    });
    const empty = converted({ ...beta, spec: { customVersion: '' } }, A);
    expect((empty['metadata'] as { labels?: unknown }).labels).toBeUndefined();
    expect(empty['spec']).toEqual({});
  });
});

describe('StatefulSet conversion', () => {
  const beta = {
    apiVersion: B,
    kind: 'StatefulSet',
    metadata: { name: 's' },
    spec: { replicas: 3, reserveOrdinals: [1], ordinals: { start: 2 } },
    status: { replicas: 3, updatedReadyReplicas: 2 },
  };

  it('v1alpha1 has none of the v1beta1-only fields; they wait in the annotation', () => {
    const alpha = converted(beta, A);
    expect(alpha['spec']).toEqual({ replicas: 3 });
    expect(alpha['status']).toEqual({ replicas: 3 });
    expect(Object.keys((alpha['metadata'] as { annotations: JsonObject }).annotations)).toEqual([
      conversionAnnotation('v1beta1'),
    ]);
  });

  it('an edit made in v1alpha1 is kept and the v1beta1-only fields come back', () => {
    const alpha = converted(beta, A);
    const back = converted({ ...alpha, spec: { replicas: 5 } }, B);
    expect(back['spec']).toEqual({ replicas: 5, reserveOrdinals: [1], ordinals: { start: 2 } });
    expect((back['metadata'] as { annotations?: unknown }).annotations).toBeUndefined();
  });

  it('an unreadable record is dropped, never an error', () => {
    const broken = {
      apiVersion: A,
      kind: 'StatefulSet',
      metadata: { name: 's', annotations: { [conversionAnnotation('v1beta1')]: '{not json' } },
      spec: { replicas: 1 },
    };
    expect(converted(broken, B)).toEqual({
      apiVersion: B,
      kind: 'StatefulSet',
      metadata: { name: 's' },
      spec: { replicas: 1 },
    });
  });
});

describe('convertObject refusals', () => {
  it.each([
    [{ apiVersion: 'apps/v1', kind: 'Deployment' }, B, 'only apps.kruise.io'],
    [{ apiVersion: A, kind: 'CloneSet' }, B, 'no such version'],
    [{ apiVersion: A, kind: 'SidecarSet' }, 'apps.kruise.io/v2', 'no such version'],
    [[1], B, 'not a JSON object'],
    [{ kind: 'SidecarSet' }, B, 'no apiVersion'],
  ])('%j to %s', (object, to, message) => {
    const result = convertObject(object, to);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toContain(message);
  });
});
