import { describe, expect, it } from 'vitest';

import { parseFeatureGates } from '@kruise-ts/app-config';
import { convertObject } from '@kruise-ts/api';
import type { PersistentVolumeClaim, Pod, StatefulSetInput } from '@kruise-ts/api';
import type { AdmissionResponse } from '@kruise-ts/webhook';
import { admissionRequest } from '@kruise-ts/webhook/testing';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
import { TemplateValidator, validationHandler } from '@kruise-ts/template-validation';

import { statefulSet, webSpec } from '../../test/fixtures/reconcile-fixture.ts';
import { statefulSetValidation } from './statefulset-validation.ts';
import { podShapeOf } from './validation-target.ts';

/** An API server's dry runs in memory: what was sent, and the refusal a test sets. */
class MemoryDryRun {
  readonly pods: Pod[] = [];
  readonly claims: PersistentVolumeClaim[] = [];
  refusePod: Error | undefined;
  refuseClaim: Error | undefined;

  createPod(pod: Pod): Promise<void> {
    this.pods.push(pod);
    return this.refusePod === undefined ? Promise.resolve() : Promise.reject(this.refusePod);
  }

  createClaim(claim: PersistentVolumeClaim): Promise<void> {
    this.claims.push(claim);
    return this.refuseClaim === undefined ? Promise.resolve() : Promise.reject(this.refuseClaim);
  }
}

type Handle = (
  operation: 'CREATE' | 'UPDATE',
  objects: { object: unknown; oldObject?: unknown },
) => Promise<AdmissionResponse>;

/** `version`: the version the API server sends the request in (the webhook is registered for both). */
function setup(version: 'v1alpha1' | 'v1beta1' = 'v1beta1'): { dryRun: MemoryDryRun; handle: Handle } {
  const dryRun = new MemoryDryRun();
  const validator = new TemplateValidator({ dryRun });
  const handler = validationHandler(statefulSetValidation(podShapeOf(parseFeatureGates(''))), validator);
  const handle: Handle = (operation, objects) => {
    const inVersion =
      version === 'v1beta1'
        ? objects
        : {
            object: asV1alpha1(objects.object),
            ...(objects.oldObject === undefined ? {} : { oldObject: asV1alpha1(objects.oldObject) }),
          };
    const request = admissionRequest({
      kind: { group: 'apps.kruise.io', version, kind: 'StatefulSet' },
      resource: 'statefulsets',
      name: 'web',
      namespace: 'ns',
      operation,
      ...inVersion,
    });
    return handler(request, new AbortController().signal);
  };
  return { dryRun, handle };
}

/** A v1beta1 set as the API server sends it in v1alpha1: through the CRD's conversion. */
function asV1alpha1(object: unknown): unknown {
  const converted = convertObject(object, 'apps.kruise.io/v1alpha1');
  if (!converted.ok) {
    throw new Error(converted.message);
  }
  return converted.object;
}

const inPlaceGates = [{ conditionType: 'InPlaceUpdateReady' }];

function inPlaceSpec(
  podUpdatePolicy: 'InPlaceOnly' | 'ReCreate',
  container: Record<string, unknown>,
): StatefulSetInput['spec'] {
  return webSpec(2, {
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { readinessGates: inPlaceGates, containers: [{ name: 'main', image: 'nginx:1.25', ...container }] },
    },
  });
}

// Registered for both served versions (issue 39): a request is judged alike in either.
describe.each(['v1beta1', 'v1alpha1'] as const)('the StatefulSet validation webhook, a request in %s', (version) => {
  describe('InPlaceOnly update rule', () => {
    const old = statefulSet({ spec: inPlaceSpec('InPlaceOnly', {}) });

    it('allows an image change', async () => {
      const { handle } = setup(version);
      const response = await handle('UPDATE', {
        object: statefulSet({ spec: inPlaceSpec('InPlaceOnly', { image: 'nginx:1.26' }) }),
        oldObject: old,
      });
      expect(response.allowed).toBe(true);
    });

    it('refuses any other change of the template spec, naming the field', async () => {
      const { handle } = setup(version);
      const response = await handle('UPDATE', {
        object: statefulSet({ spec: inPlaceSpec('InPlaceOnly', { env: [{ name: 'A', value: '1' }] }) }),
        oldObject: old,
      });
      expect(response.allowed).toBe(false);
      expect(response.status).toMatchObject({ code: 422, reason: 'Invalid' });
      expect(response.status?.message).toBe(
        'StatefulSet "web" is invalid: spec.template.spec: Forbidden: only allowed to update images in spec for InPlaceOnly, but found add /containers/0/env',
      );
    });

    it('does not apply to other policies', async () => {
      const { handle } = setup(version);
      const response = await handle('UPDATE', {
        object: statefulSet({ spec: inPlaceSpec('ReCreate', { env: [{ name: 'A', value: '1' }] }) }),
        oldObject: statefulSet({ spec: inPlaceSpec('ReCreate', {}) }),
      });
      expect(response.allowed).toBe(true);
    });
  });

  it('refuses a template the API server refuses, at the set field path', async () => {
    const { dryRun, handle } = setup(version);
    dryRun.refusePod = fakeApiError({
      code: 422,
      reason: 'Invalid',
      message: 'Pod "web-1" is invalid: spec.containers[0].name: Invalid value: "Main"',
      causes: [
        {
          reason: 'FieldValueInvalid',
          field: 'spec.containers[0].name',
          message: 'Invalid value: "Main": a lowercase RFC 1123 label must consist of ...',
        },
      ],
    });
    const response = await handle('CREATE', { object: statefulSet({ spec: webSpec(2) }) });
    expect(response.allowed).toBe(false);
    expect(response.status?.message).toBe(
      'StatefulSet "web" is invalid: spec.template.spec.containers[0].name: Invalid value: "Main": a lowercase RFC 1123 label must consist of ...',
    );
    expect(dryRun.pods.map((pod) => pod.spec?.hostname)).toEqual(['web-1']);
  });

  it('refuses a claim template the API server refuses, at its path', async () => {
    const { dryRun, handle } = setup(version);
    dryRun.refuseClaim = fakeApiError({
      code: 422,
      reason: 'Invalid',
      causes: [{ reason: 'FieldValueRequired', field: 'spec.resources[storage]', message: 'Required value' }],
    });
    const spec = webSpec(1, {
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
    });
    const response = await handle('CREATE', { object: statefulSet({ spec }) });
    expect(response.status?.message).toBe(
      'StatefulSet "web" is invalid: spec.volumeClaimTemplates[0].spec.resources[storage]: Required value',
    );
    expect(dryRun.claims.map((claim) => claim.metadata?.name)).toEqual(['data-web-x']);
  });

  it('does not dry-run again an update that leaves the pod as it was', async () => {
    const { dryRun, handle } = setup(version);
    const old = statefulSet({ spec: webSpec(2) });
    const response = await handle('UPDATE', {
      object: statefulSet({ spec: webSpec(2, { updateStrategy: { rollingUpdate: { partition: 1 } } }) }),
      oldObject: old,
    });
    expect(response.allowed).toBe(true);
    expect(dryRun.pods).toEqual([]);
  });

  it('dry-runs a scale-out for the new highest ordinal', async () => {
    const { dryRun, handle } = setup(version);
    await handle('UPDATE', {
      object: statefulSet({ spec: webSpec(10) }),
      oldObject: statefulSet({ spec: webSpec(2) }),
    });
    expect(dryRun.pods.map((pod) => pod.spec?.hostname)).toEqual(['web-9']);
  });

  it('rejects an object it cannot read', async () => {
    const { handle } = setup(version);
    const response = await handle('CREATE', {
      object: {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'StatefulSet',
        metadata: { name: 'web' },
        spec: { replicas: 'two' },
      },
    });
    expect(response.status?.code).toBe(400);
  });

  it('admits a valid set, having dry-run its pod', async () => {
    const { dryRun, handle } = setup(version);
    expect(await handle('CREATE', { object: statefulSet({ spec: webSpec(2) }) })).toEqual({ allowed: true });
    expect(dryRun.pods.map((pod) => pod.spec?.containers[0]?.image)).toEqual(['nginx:1.25']);
  });
});

describe('the StatefulSet validation webhook, either version', () => {
  it('reads a v1alpha1 request as v1beta1, with the fields its conversion record keeps', () => {
    const set = statefulSet({ spec: webSpec(2, { reserveOrdinals: [1] }) });
    const parsed = statefulSetValidation(podShapeOf(parseFeatureGates(''))).parse(asV1alpha1(set));
    expect(parsed).toMatchObject({
      ok: true,
      value: { apiVersion: 'apps.kruise.io/v1beta1', spec: { reserveOrdinals: [1] } },
    });
  });
});
