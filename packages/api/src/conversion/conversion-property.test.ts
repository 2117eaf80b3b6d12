/**
 * Hostile conversion records, for every kind and direction (property, seeded): prototype keys,
 * identity fields, deep and huge paths and values, wrong types, stale uids and generations, garbage.
 * Whatever the annotation holds, the conversion answers, the process's globals are as they were, the
 * object's identity is its own, and the answer differs from the conversion of the same object without
 * the annotation only at the fields its rule lists, each holding a value its schema accepts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { SIDECARSET_CUSTOM_VERSION_LABEL } from '../apps/v1alpha1/sidecarset-names.ts';
import { CONVERSION_ANNOTATION_PREFIX, conversionAnnotation } from './conversion-record.ts';
import type { JsonObject } from './conversion-record.ts';
import { convertObject } from './convert-object.ts';
import { isJsonObject, valueAt } from './json-path.ts';
import { MAX_RECORD_LENGTH } from './record-reader.ts';
import {
  SIDECARSET_INTO_V1ALPHA1,
  SIDECARSET_INTO_V1BETA1,
  STATEFULSET_INTO_V1ALPHA1,
  STATEFULSET_INTO_V1BETA1,
} from './restorable-fields.ts';
import type { RestoreRule } from './restorable-fields.ts';

const A = 'apps.kruise.io/v1alpha1';
const B = 'apps.kruise.io/v1beta1';
const SEED = 38;
const RUNS = 1000;

// ---- the process's globals ----

const PROTOTYPES: readonly object[] = [
  Object.prototype,
  Array.prototype,
  Function.prototype,
  String.prototype,
  Number.prototype,
  Boolean.prototype,
  Map.prototype,
  Set.prototype,
  Promise.prototype,
  RegExp.prototype,
];

function globalsSnapshot(): string[] {
  return PROTOTYPES.map((prototype) =>
    [...Object.getOwnPropertyNames(prototype), ...Object.getOwnPropertySymbols(prototype).map(String)].sort().join(','),
  );
}

// ---- objects, in the version they are converted from ----

const metadataArb = fc.record({
  name: fc.constantFrom('db', 'web'),
  namespace: fc.constantFrom(undefined, 'ns'),
  uid: fc.constantFrom('u-1', undefined),
  resourceVersion: fc.constant('5'),
  generation: fc.constantFrom(1, 2, undefined),
  labels: fc.constantFrom(undefined, { app: 'x' }, { [SIDECARSET_CUSTOM_VERSION_LABEL]: 'v7' }),
  annotations: fc.constantFrom(undefined, { note: 'n' }),
});

const statefulSetSpecArb = fc.record({
  replicas: fc.nat(5),
  ordinals: fc.constantFrom(undefined, { start: 3 }),
  reserveOrdinals: fc.constantFrom(undefined, [1, '3-4']),
  scaleStrategy: fc.constantFrom(undefined, { maxUnavailable: '50%' }),
});

const sidecarSetSpecArb = fc.record({
  selector: fc.constant({ matchLabels: { app: 'web' } }),
  namespace: fc.constantFrom(undefined, 'team-a', ''),
  namespaceSelector: fc.constantFrom(undefined, { matchLabels: { team: 'b' } }),
  customVersion: fc.constantFrom(undefined, 'v2', ''),
});

/** An object without undefined members (as JSON has none). */
function json<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

// ---- hostile records ----

/** Marks a `produced` to be replaced by what the object holds at the path, so that the "changed since" check lets the entry through. */
const CURRENT = '\u0000current';

const PROTOTYPE_VALUE: unknown = JSON.parse(
  '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"start":1}',
);
const RULES = [STATEFULSET_INTO_V1BETA1, STATEFULSET_INTO_V1ALPHA1, SIDECARSET_INTO_V1BETA1, SIDECARSET_INTO_V1ALPHA1];
const RESTORABLE_PATHS = RULES.flatMap((rule) => rule.fields.map((field) => field.path));
const HOSTILE_PATHS: readonly (readonly string[])[] = [
  ['__proto__', 'polluted'],
  ['spec', '__proto__', 'polluted'],
  ['constructor', 'prototype', 'polluted'],
  ['metadata', 'labels', '__proto__'],
  ['metadata', '__proto__', 'polluted'],
  ['metadata', 'name'],
  ['metadata', 'namespace'],
  ['metadata', 'uid'],
  ['metadata', 'resourceVersion'],
  ['metadata', 'generation'],
  ['metadata'],
  ['kind'],
  ['apiVersion'],
  ['spec'],
  ['spec', 'replicas'],
  ['spec', 'ordinals', 'start'],
  ['status', 'replicas'],
];
/** A value each restorable field accepts, by path. */
const GOOD_VALUES: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ['spec.reserveOrdinals', [5, '7-9']],
  ['spec.lifecycle', { preDelete: { labelsHandler: { hold: 'true' } } }],
  ['spec.scaleStrategy', { maxUnavailable: 1 }],
  ['spec.volumeClaimUpdateStrategy', { type: 'OnDelete' }],
  ['spec.persistentVolumeClaimRetentionPolicy', { whenScaled: 'Delete' }],
  ['spec.ordinals', { start: 2 }],
  ['status.updatedReadyReplicas', 3],
  ['status.updatedAvailableReplicas', 2],
  ['status.volumeClaims', [{ volumeClaimName: 'data', compatibleReplicas: 1, compatibleReadyReplicas: 1 }]],
  [`metadata.labels.${SIDECARSET_CUSTOM_VERSION_LABEL}`, 'v9'],
  ['spec.customVersion', 'v9'],
  ['spec.namespace', 'team-z'],
  ['spec.namespaceSelector', { matchLabels: { z: 'y' } }],
]);

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) {
    value = { start: value };
  }
  return value;
}

const valueArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...GOOD_VALUES.values()) },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(PROTOTYPE_VALUE, nested(40), undefined, 'not a label value!', -1) },
);

/** Entries of a record: good ones (a path the rule restores, a value it accepts, what the object holds now as produced) and anything else. */
function entryArb(rule: RestoreRule) {
  const own = rule.fields.map((field) => ({
    path: field.path,
    original: GOOD_VALUES.get(field.path.join('.')),
    produced: CURRENT,
  }));
  const any = fc.record({
    path: fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...RESTORABLE_PATHS) },
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_PATHS) },
      { weight: 1, arbitrary: fc.array(fc.string({ maxLength: 4 }), { maxLength: 4 }) },
    ),
    original: valueArb,
    produced: fc.oneof(
      { weight: 3, arbitrary: fc.constant(CURRENT) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    ),
  });
  return own.length === 0
    ? any
    : fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: any });
}

function recordArb(rule: RestoreRule) {
  return fc.record({
    changes: fc.array(entryArb(rule), { maxLength: 4 }),
    uid: fc.constantFrom(undefined, 'u-1', 'u-2', 7),
    generation: fc.constantFrom(undefined, 1, 2, 3, '2', 1.5),
    specHash: fc.constantFrom(undefined, 'not-the-hash', 7),
  });
}

/** Annotations too large, too deep or too long to be read, by name (a counterexample shows the name): each made once. */
const FIXED_TEXTS: Readonly<Record<string, string>> = {
  'a 30,000-step path': JSON.stringify({ changes: [{ path: Array.from({ length: 30_000 }, () => 'a'), original: 1 }] }),
  'a value nested 100,000 levels deep': `{"changes":[{"path":["spec","ordinals"],"original":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`,
  'a record over the size bound': JSON.stringify({
    changes: [{ path: ['spec', 'ordinals'], original: { start: 1, pad: 'x'.repeat(MAX_RECORD_LENGTH) } }],
  }),
  'a record with a __proto__ key': '{"__proto__":{"polluted":"yes"},"changes":[]}',
  'a __proto__ path with its produced value':
    '{"changes":[{"path":["__proto__","polluted"],"original":"yes"}],"uid":"u-1"}',
};

type Generated<T> = T extends fc.Arbitrary<infer V> ? V : never;
type Annotation =
  | { readonly record: Generated<ReturnType<typeof recordArb>> }
  | { readonly fixed: string }
  | { readonly text: unknown };

function annotationArb(rule: RestoreRule): fc.Arbitrary<Annotation> {
  return fc.oneof(
    { weight: 8, arbitrary: recordArb(rule).map((record) => ({ record })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((text) => ({ text })) },
    { weight: 1, arbitrary: fc.constantFrom(...Object.keys(FIXED_TEXTS)).map((fixed) => ({ fixed })) },
    { weight: 1, arbitrary: fc.constantFrom(1, null, { changes: [] }, ['x']).map((text) => ({ text })) },
  );
}

/** The annotation's value for `object`: a record's CURRENT markers replaced by what the object holds there. */
function annotationText(annotation: Annotation, object: JsonObject): unknown {
  if ('text' in annotation) {
    return annotation.text;
  }
  if ('fixed' in annotation) {
    return FIXED_TEXTS[annotation.fixed];
  }
  const changes = annotation.record.changes.map((entry) => ({
    ...entry,
    produced: entry.produced === CURRENT ? valueAt(object, entry.path) : entry.produced,
  }));
  return JSON.stringify({ ...annotation.record, changes });
}

function withAnnotations(object: JsonObject, annotations: Readonly<Record<string, unknown>>): JsonObject {
  const metadata = object['metadata'] as JsonObject;
  return {
    ...object,
    metadata: { ...metadata, annotations: { ...(metadata['annotations'] as JsonObject | undefined), ...annotations } },
  };
}

// ---- what may differ ----

/** The leaf paths at which `a` and `b` differ; a side without an object where the other has one counts as `{}`. */
function differences(a: unknown, b: unknown, at: readonly string[] = []): string[][] {
  if (!isJsonObject(a) && !isJsonObject(b)) {
    return JSON.stringify(a) === JSON.stringify(b) ? [] : [[...at]];
  }
  const left = isJsonObject(a) ? a : {};
  const right = isJsonObject(b) ? b : {};
  if (!isJsonObject(a) && a !== undefined) {
    return [[...at]];
  }
  if (!isJsonObject(b) && b !== undefined) {
    return [[...at]];
  }
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].flatMap((key) =>
    differences(Object.hasOwn(left, key) ? left[key] : undefined, Object.hasOwn(right, key) ? right[key] : undefined, [
      ...at,
      key,
    ]),
  );
}

function isConversionAnnotation(path: readonly string[]): boolean {
  return (
    path.length === 3 &&
    path[0] === 'metadata' &&
    path[1] === 'annotations' &&
    (path[2] ?? '').startsWith(CONVERSION_ANNOTATION_PREFIX)
  );
}

function underRestorable(path: readonly string[], rule: RestoreRule): boolean {
  return rule.fields.some((field) => field.path.every((step, index) => path[index] === step));
}

const IDENTITY: readonly (readonly string[])[] = [
  ['kind'],
  ['metadata', 'name'],
  ['metadata', 'namespace'],
  ['metadata', 'uid'],
  ['metadata', 'resourceVersion'],
  ['metadata', 'generation'],
];

const DIRECTIONS = [
  {
    name: 'StatefulSet v1alpha1 -> v1beta1',
    kind: 'StatefulSet',
    from: A,
    to: B,
    rule: STATEFULSET_INTO_V1BETA1,
    spec: statefulSetSpecArb,
  },
  {
    name: 'StatefulSet v1beta1 -> v1alpha1',
    kind: 'StatefulSet',
    from: B,
    to: A,
    rule: STATEFULSET_INTO_V1ALPHA1,
    spec: statefulSetSpecArb,
  },
  {
    name: 'SidecarSet v1alpha1 -> v1beta1',
    kind: 'SidecarSet',
    from: A,
    to: B,
    rule: SIDECARSET_INTO_V1BETA1,
    spec: sidecarSetSpecArb,
  },
  {
    name: 'SidecarSet v1beta1 -> v1alpha1',
    kind: 'SidecarSet',
    from: B,
    to: A,
    rule: SIDECARSET_INTO_V1ALPHA1,
    spec: sidecarSetSpecArb,
  },
] as const;

describe('convertObject under hostile conversion records (property, seeded, every kind and direction)', () => {
  it.each(DIRECTIONS)(
    '$name: no throw, globals unchanged, identity kept, only restorable fields differ',
    ({ kind, from, to, rule, spec }) => {
      const objectArb = fc.record({ metadata: metadataArb, spec }).map(
        ({ metadata, spec: body }) =>
          json({
            apiVersion: from,
            kind,
            metadata,
            spec: body,
            status: { replicas: 1, updatedReadyReplicas: 1 },
          }) as JsonObject,
      );
      const casesArb = fc.record({
        object: objectArb,
        own: fc.option(annotationArb(rule), { nil: undefined }),
        other: fc.option(annotationArb(rule), { nil: undefined }),
      });
      const globals = globalsSnapshot();
      let restoredCases = 0;
      fc.assert(
        fc.property(casesArb, ({ object, own, other }) => {
          const otherVersion = rule.version === 'v1beta1' ? 'v1alpha1' : 'v1beta1';
          const hostile = withAnnotations(object, {
            ...(own === undefined ? {} : { [conversionAnnotation(rule.version)]: annotationText(own, object) }),
            ...(other === undefined ? {} : { [conversionAnnotation(otherVersion)]: annotationText(other, object) }),
          });
          const input = structuredClone(hostile);
          const result = convertObject(hostile, to);
          const baseline = convertObject(object, to);
          expect(globalsSnapshot()).toEqual(globals);
          expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
          expect(hostile).toEqual(input);
          if (!result.ok || !baseline.ok) {
            throw new Error('a conversion record failed a conversion');
          }
          expect(result.object['apiVersion']).toBe(to);
          for (const path of IDENTITY) {
            expect(valueAt(result.object, path), path.join('.')).toEqual(valueAt(object, path));
          }
          const differing = differences(baseline.object, result.object).filter((path) => !isConversionAnnotation(path));
          for (const path of differing) {
            expect(underRestorable(path, rule), `${JSON.stringify(path)} differs`).toBe(true);
          }
          if (differing.length > 0) {
            restoredCases++;
          }
          for (const field of rule.fields) {
            const value = valueAt(result.object, field.path);
            const restored =
              value !== undefined && JSON.stringify(value) !== JSON.stringify(valueAt(baseline.object, field.path));
            if (restored) {
              expect(field.schema.safeParse(value).success, field.path.join('.')).toBe(true);
            }
          }
        }),
        { seed: SEED, numRuns: RUNS },
      );
      // Not vacuous: some records were good enough to be restored (none can be where the rule lists nothing).
      expect(restoredCases > 0).toBe(rule.fields.length > 0);
    },
  );
});
