/**
 * The findings of issue 38 against the conversion record, each by name: what a user-writable
 * annotation could do to the webhook's process and to the converted object before it was read by a
 * fixed list of restorable fields.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { SIDECARSET_CUSTOM_VERSION_LABEL } from '../apps/v1alpha1/sidecarset-names.ts';
import { conversionAnnotation } from './conversion-record.ts';
import type { JsonObject } from './conversion-record.ts';
import { convertObject } from './convert-object.ts';

const A = 'apps.kruise.io/v1alpha1';
const B = 'apps.kruise.io/v1beta1';

function converted(object: JsonObject, to: string): JsonObject {
  const result = convertObject(object, to);
  if (!result.ok) {
    throw new Error(result.message);
  }
  return result.object;
}

function withRecord(object: JsonObject, version: string, record: unknown): JsonObject {
  const metadata = (object['metadata'] ?? {}) as JsonObject;
  const annotations = (metadata['annotations'] ?? {}) as JsonObject;
  return {
    ...object,
    metadata: { ...metadata, annotations: { ...annotations, [conversionAnnotation(version)]: JSON.stringify(record) } },
  };
}

const statefulSetV1alpha1 = {
  apiVersion: A,
  kind: 'StatefulSet',
  metadata: { name: 'db', namespace: 'ns', uid: 'u-1', generation: 2, resourceVersion: '7' },
  spec: { replicas: 1 },
};

afterEach(() => {
  Reflect.deleteProperty(Object.prototype, 'polluted');
});

describe('issue 38: a recorded path cannot reach the process or the object identity', () => {
  it.each([
    ['["__proto__","polluted"]', ['__proto__', 'polluted']],
    ['["spec","__proto__","polluted"]', ['spec', '__proto__', 'polluted']],
    ['["constructor","prototype","polluted"]', ['constructor', 'prototype', 'polluted']],
  ])('prototype pollution: the path %s leaves Object.prototype unchanged', (_name, path) => {
    const hostile = withRecord(statefulSetV1alpha1, 'v1beta1', { changes: [{ path, original: 'yes' }] });
    const result = convertObject(hostile, B);
    expect(result.ok).toBe(true);
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  // `produced` is what the object holds now, so that the "changed since" check lets the entry through.
  it.each([
    [['metadata', 'name'], 'renamed', 'db'],
    [['metadata', 'namespace'], 'elsewhere', 'ns'],
    [['metadata', 'uid'], 'u-2', 'u-1'],
    [['metadata', 'resourceVersion'], '1', '7'],
    [['metadata', 'generation'], 9, 2],
    [['kind'], 'CloneSet', 'StatefulSet'],
    [['apiVersion'], 'apps/v1', A],
    [['metadata'], { name: 'renamed' }, statefulSetV1alpha1.metadata],
  ])('identity field: a recorded change of %j is not applied (metadata.name unchanged)', (path, original, produced) => {
    const hostile = withRecord(statefulSetV1alpha1, 'v1beta1', { changes: [{ path, original, produced }] });
    const back = converted(hostile, B);
    expect(back['apiVersion']).toBe(B);
    expect(back['kind']).toBe('StatefulSet');
    expect(back['metadata']).toEqual({ name: 'db', namespace: 'ns', uid: 'u-1', generation: 2, resourceVersion: '7' });
  });

  it('identity field: a SidecarSet record cannot rename the object either', () => {
    const beta = {
      apiVersion: B,
      kind: 'SidecarSet',
      metadata: { name: 's', uid: 'u' },
      spec: { customVersion: 'v1' },
    };
    const hostile = withRecord(beta, 'v1alpha1', {
      changes: [{ path: ['metadata', 'name'], original: 'other', produced: 's' }],
    });
    expect((converted(hostile, A)['metadata'] as JsonObject)['name']).toBe('s');
  });

  it('the deep path: a 30,000-step recorded path (a 120 KB annotation) does not throw and is ignored', () => {
    const path = Array.from({ length: 30_000 }, () => 'a');
    const hostile = withRecord(statefulSetV1alpha1, 'v1beta1', { changes: [{ path, original: 1 }] });
    expect(() => convertObject(hostile, B)).not.toThrow();
    expect(converted(hostile, B)['spec']).toEqual({ replicas: 1 });
  });

  it('the deep path: a recorded value nested 100,000 levels deep does not throw and is ignored', () => {
    const text = `{"changes":[{"path":["spec","ordinals"],"original":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`;
    const hostile = {
      ...statefulSetV1alpha1,
      metadata: { ...statefulSetV1alpha1.metadata, annotations: { [conversionAnnotation('v1beta1')]: text } },
    };
    expect(() => convertObject(hostile, B)).not.toThrow();
    expect(converted(hostile, B)['spec']).toEqual({ replicas: 1 });
  });

  it('the deep path: an object nested deeper than a conversion can copy is refused by name, not thrown', () => {
    let deep: JsonObject = {};
    for (let level = 0; level < 5000; level++) {
      deep = { a: deep };
    }
    const result = convertObject({ ...statefulSetV1alpha1, spec: { replicas: 1, template: deep } }, B);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toContain('nested deeper than');
  });
});

describe('issue 38: a stale copy of the annotation is ignored', () => {
  const beta = {
    apiVersion: B,
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'ns', uid: 'u-1', generation: 1 },
    spec: { replicas: 3, ordinals: { start: 5 }, reserveOrdinals: [7] },
  };

  /** The v1alpha1 object as a write brings it: `spec` and `generation` as the conversion sees them, with the annotation of `read`. */
  function written(read: JsonObject, change: { readonly generation: number; readonly spec: JsonObject }): JsonObject {
    const { annotations } = read['metadata'] as { annotations: JsonObject };
    return {
      apiVersion: A,
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'ns', uid: 'u-1', generation: change.generation, annotations },
      spec: change.spec,
    };
  }

  it('the stale annotation that restores ordinals.start: written at generation 1, the object at generation 2 does not get ordinals.start back', () => {
    const readAtGeneration1 = converted(beta, A);
    // Generation 2 removed ordinals.start (a v1beta1 write; the v1alpha1 view is unchanged). An old copy
    // of the view (kubectl get -o yaml at generation 1) applied now writes back its annotation.
    const back = converted(written(readAtGeneration1, { generation: 2, spec: { replicas: 3 } }), B);
    expect(back['spec']).toEqual({ replicas: 3 });
    expect((back['metadata'] as { annotations?: unknown }).annotations).toBeUndefined();
  });

  it('a copy two generations old is stale whatever its spec (generation 3: the apply changed the spec as well)', () => {
    const readAtGeneration1 = converted(beta, A);
    expect(converted(written(readAtGeneration1, { generation: 3, spec: { replicas: 4 } }), B)['spec']).toEqual({
      replicas: 4,
    });
  });

  it('a write of the view read at generation 1 that changes the spec (the API server bumps the generation to 2 before storing) keeps the fields', () => {
    const readAtGeneration1 = converted(beta, A);
    expect(converted(written(readAtGeneration1, { generation: 2, spec: { replicas: 6 } }), B)['spec']).toEqual({
      replicas: 6,
      ordinals: { start: 5 },
      reserveOrdinals: [7],
    });
  });

  it('a write of the view at its own generation keeps the fields', () => {
    const readAtGeneration1 = converted(beta, A);
    expect(converted(written(readAtGeneration1, { generation: 1, spec: { replicas: 3 } }), B)['spec']).toEqual({
      replicas: 3,
      ordinals: { start: 5 },
      reserveOrdinals: [7],
    });
  });

  it('a copy of the annotation from another object (another uid) is ignored', () => {
    const annotations = (converted(beta, A)['metadata'] as { annotations: JsonObject }).annotations;
    const other = {
      apiVersion: A,
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'ns', uid: 'u-2', generation: 1, annotations },
      spec: { replicas: 3 },
    };
    expect(converted(other, B)['spec']).toEqual({ replicas: 3 });
  });

  it('a record of the old format (no uid, no generation) is still read', () => {
    const old = withRecord({ ...statefulSetV1alpha1 }, 'v1beta1', {
      changes: [{ path: ['spec', 'ordinals'], original: { start: 2 } }],
    });
    expect(converted(old, B)['spec']).toEqual({ replicas: 1, ordinals: { start: 2 } });
  });

  it('the stored SidecarSet record carries the uid only: a new generation does not make it stale, another uid does', () => {
    const alpha = {
      apiVersion: A,
      kind: 'SidecarSet',
      metadata: { name: 's', uid: 'u-1', generation: 3 },
      spec: { namespace: 'team-a' },
    };
    const stored = converted(alpha, B);
    const record = JSON.parse(
      String((stored['metadata'] as { annotations: JsonObject }).annotations[conversionAnnotation('v1alpha1')]),
    ) as JsonObject;
    expect(record['uid']).toBe('u-1');
    expect(record['generation']).toBeUndefined();
    const bumped = { ...stored, metadata: { ...(stored['metadata'] as JsonObject), generation: 4 } };
    expect(converted(bumped, A)['spec']).toEqual({ namespace: 'team-a' });
    const recreated = { ...stored, metadata: { ...(stored['metadata'] as JsonObject), uid: 'u-2' } };
    expect(converted(recreated, A)['spec']).toEqual({
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } },
    });
  });
});

describe('issue 38: only the fields a version cannot hold are restored, each checked against its schema', () => {
  it.each([
    ['a field both versions have', { path: ['spec', 'replicas'], original: 99 }],
    ['a status field both versions have', { path: ['status', 'replicas'], original: 99 }],
    ['a field below a restorable one', { path: ['spec', 'ordinals', 'start'], original: 3 }],
    ['a value of the wrong type', { path: ['spec', 'ordinals'], original: 'three' }],
    ['a negative ordinal start', { path: ['spec', 'ordinals'], original: { start: -1 } }],
    ['an annotation', { path: ['metadata', 'annotations', 'x'], original: 'y' }],
  ])('a StatefulSet record of %s is ignored and counted', (_name, entry) => {
    const hostile = withRecord(statefulSetV1alpha1, 'v1beta1', { changes: [entry] });
    const result = convertObject(hostile, B);
    expect(result).toEqual({ ok: true, object: { ...statefulSetV1alpha1, apiVersion: B }, ignoredRecordEntries: 1 });
  });

  it('a SidecarSet custom-version label that is not a label value is not restored', () => {
    const alpha = { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's' }, spec: {} };
    const hostile = withRecord(alpha, 'v1beta1', {
      changes: [{ path: ['metadata', 'labels', SIDECARSET_CUSTOM_VERSION_LABEL], original: 'not a label value!' }],
    });
    const result = convertObject(hostile, B);
    expect(result.ok && result.ignoredRecordEntries).toBe(1);
    expect(result.ok && result.object['metadata']).toEqual({ name: 's' });
  });

  it.each([
    ['garbage', '{not json'],
    ['an array', '[1,2]'],
    [
      'too large',
      JSON.stringify({
        changes: [{ path: ['spec', 'ordinals'], original: { start: 1, pad: 'x'.repeat(300 * 1024) } }],
      }),
    ],
  ])('an unreadable record (%s) counts as one ignored entry', (_name, text) => {
    const hostile = {
      ...statefulSetV1alpha1,
      metadata: { ...statefulSetV1alpha1.metadata, annotations: { [conversionAnnotation('v1beta1')]: text } },
    };
    expect(convertObject(hostile, B)).toEqual({
      ok: true,
      object: { ...statefulSetV1alpha1, apiVersion: B },
      ignoredRecordEntries: 1,
    });
  });
});
