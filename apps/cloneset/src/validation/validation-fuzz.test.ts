/**
 * The CloneSet validation handler under random input: 10,000 random templates the CRD schema accepts
 * (the API schema mirrors it), with the API server's dry runs answering at random (accepted, Invalid
 * with causes at random fields, BadRequest, Forbidden, an outage, a thrown non-API error), creates and
 * updates alike; and unreadable objects. It must always answer, never throw, and deny only with a
 * code and a message.
 */
import { describe, expect, it } from 'vitest';

import { cloneSetSchema } from '@kruise-ts/api';
import { ApiError } from '@kruise-ts/controller-runtime';
import type { AdmissionRequest, AdmissionResponse } from '@kruise-ts/webhook';
import { admissionRequest } from '@kruise-ts/webhook/testing';
import { pick, seededRandom } from '@kruise-ts/controller-runtime/testing';
import type { Random } from '@kruise-ts/controller-runtime/testing';
import { TemplateValidator, validationHandler } from '@kruise-ts/template-validation';

import { cloneSetValidation } from './cloneset-validation.ts';

const KEYS = [
  'containers',
  'initContainers',
  'volumes',
  'name',
  'image',
  'ports',
  'containerPort',
  'env',
  'value',
  'resources',
  'requests',
  'cpu',
  'labels',
  'annotations',
  'readinessGates',
  'conditionType',
  'spec',
  'metadata',
  'x',
];
const LEAVES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  65_536,
  0.5,
  1e21,
  '',
  'Main',
  'nginx',
  '1Gi',
  '-1',
  'x'.repeat(300),
  '\u0000',
  '{}',
];

function randomJson(random: Random, depth: number): unknown {
  if (depth <= 0 || random() < 0.4) {
    return pick(random, LEAVES);
  }
  if (random() < 0.4) {
    return Array.from({ length: Math.floor(random() * 3) }, () => randomJson(random, depth - 1));
  }
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 3); i > 0; i--) {
    object[pick(random, KEYS)] = randomJson(random, depth - 1);
  }
  return object;
}

/** A copy of `value` with a random member at a random depth replaced by random JSON, or added. */
function mutate(random: Random, value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || random() < 0.15 * depth) {
    return randomJson(random, 3);
  }
  if (Array.isArray(value)) {
    const items = [...(value as unknown[])];
    const at = Math.floor(random() * (items.length + 1));
    items[at] = mutate(random, items[at], depth + 1);
    return items;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const key = pick(random, [...Object.keys(copy), ...KEYS]);
  copy[key] = mutate(random, copy[key], depth + 1);
  return copy;
}

const base = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'ns', generation: 1 },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
    volumeClaimTemplates: [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ],
  },
};

/** A random CloneSet whose template (and claim templates) the schema accepts. */
function acceptedCloneSet(random: Random): unknown {
  for (;;) {
    const spec = base.spec as Record<string, unknown>;
    const target = random() < 0.8 ? 'template' : 'volumeClaimTemplates';
    const candidate = { ...base, spec: { ...spec, [target]: mutate(random, spec[target]) } };
    if (cloneSetSchema.safeParse(candidate).success) {
      return candidate;
    }
  }
}

/** The API server's answer to a dry run, at random. */
function randomDryRun(random: Random): Promise<void> {
  const field = pick(random, [
    'spec.containers[0].name',
    'spec.volumes[0].name',
    'metadata.labels',
    'metadata.name',
    'spec.resources.requests[storage]',
    '',
    'spec.x[999]',
  ]);
  switch (Math.floor(random() * 7)) {
    case 0:
    case 1:
      return Promise.resolve();
    case 2:
      return Promise.reject(
        new ApiError({
          code: 422,
          status: {
            message: 'invalid',
            reason: 'Invalid',
            code: 422,
            details: { causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "x"', field }] },
          },
        }),
      );
    case 3:
      return Promise.reject(
        new ApiError({
          code: 400,
          status: {
            message:
              'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field PodSpec.spec.volumes of type []v1.Volume',
            code: 400,
          },
        }),
      );
    case 4:
      return Promise.reject(
        new ApiError({ code: 403, status: { message: 'forbidden: violates PodSecurity', code: 403 } }),
      );
    case 5:
      return Promise.reject(new ApiError({ code: 503, status: { message: 'unavailable', code: 503 } }));
    default:
      return Promise.reject(new TypeError('fetch failed'));
  }
}

function request(random: Random, object: unknown, oldObject?: unknown): AdmissionRequest {
  return admissionRequest({
    kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet' },
    resource: 'clonesets',
    name: 'web',
    namespace: 'ns',
    operation: oldObject === undefined ? 'CREATE' : pick(random, ['UPDATE', 'UPDATE', 'DELETE'] as const),
    object,
    oldObject,
  });
}

function wellFormed(response: AdmissionResponse): boolean {
  const warningsShort = (response.warnings ?? []).every(
    (warning) => typeof warning === 'string' && warning.length <= 250,
  );
  if (response.allowed) {
    return warningsShort && response.status === undefined;
  }
  return (
    warningsShort &&
    (response.status?.code === 400 || response.status?.code === 422) &&
    response.status.message.length > 0
  );
}

describe('CloneSet validation handler under random input', () => {
  it('answers 10,000 random schema-accepted templates, creates and updates, with well-formed responses', async () => {
    const random = seededRandom(20);
    // A small cache, so that most templates reach the random dry runs.
    const validator = new TemplateValidator({
      dryRun: { createPod: () => randomDryRun(random), createClaim: () => randomDryRun(random) },
      maxEntries: 16,
    });
    const handler = validationHandler(
      cloneSetValidation({ shortHash: false, reCreateWithoutReadinessGates: false }),
      validator,
    );
    const signal = new AbortController().signal;
    const tally = { allowed: 0, denied: 0 };
    for (let i = 0; i < 10_000; i++) {
      const object = acceptedCloneSet(random);
      const old = random() < 0.3 ? acceptedCloneSet(random) : undefined;
      const response = await handler(request(random, object, old), signal);
      expect(response).toSatisfy(wellFormed);
      tally[response.allowed ? 'allowed' : 'denied'] += 1;
    }
    expect(tally.allowed).toBeGreaterThan(1000);
    expect(tally.denied).toBeGreaterThan(1000);
  }, 120_000);

  it.each([
    ['no object', undefined],
    ['a string', 'CloneSet'],
    ['an array', [base]],
    ['no spec', { ...base, spec: undefined }],
    ['a template that is a number', { ...base, spec: { ...base.spec, template: 5 } }],
    ['containers that are a string', { ...base, spec: { ...base.spec, template: { spec: { containers: 'main' } } } }],
    [
      'deep nesting',
      {
        ...base,
        spec: {
          ...base.spec,
          template: {
            ...base.spec.template,
            spec: { ...base.spec.template.spec, x: JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`) as unknown },
          },
        },
      },
    ],
  ])('refuses an unreadable object (%s) with a clear message', async (_name, object) => {
    const validator = new TemplateValidator({
      dryRun: { createPod: () => Promise.resolve(), createClaim: () => Promise.resolve() },
    });
    const handler = validationHandler(
      cloneSetValidation({ shortHash: false, reCreateWithoutReadinessGates: false }),
      validator,
    );
    const response = await handler(request(seededRandom(1), object), new AbortController().signal);
    expect(response).toSatisfy(wellFormed);
    if (!response.allowed) {
      expect(response.status?.message).toMatch(/^CloneSet "web" (cannot be read|is invalid): /);
    }
  });
});
