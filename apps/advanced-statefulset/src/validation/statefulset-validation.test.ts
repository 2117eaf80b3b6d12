import { describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim, Pod, StatefulSetInput } from '@kruise-ts/api';
import { parseFeatureGates } from '@kruise-ts/controller-runtime';
import type { AdmissionResponse } from '@kruise-ts/controller-runtime';
import { admissionRequest, fakeApiError } from '@kruise-ts/controller-runtime/testing';
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

function setup(): { dryRun: MemoryDryRun; handle: (operation: 'CREATE' | 'UPDATE', objects: { object: unknown; oldObject?: unknown }) => Promise<AdmissionResponse> } {
  const dryRun = new MemoryDryRun();
  const validator = new TemplateValidator({ dryRun });
  const handler = validationHandler(statefulSetValidation(podShapeOf(parseFeatureGates(''))), validator);
  const handle = (operation: 'CREATE' | 'UPDATE', objects: { object: unknown; oldObject?: unknown }): Promise<AdmissionResponse> => {
    const request = admissionRequest({ kind: { group: 'apps.kruise.io', version: 'v1beta1', kind: 'StatefulSet' }, resource: 'statefulsets', name: 'web', namespace: 'ns', operation, ...objects });
    return handler(request, new AbortController().signal);
  };
  return { dryRun, handle };
}

const inPlaceGates = [{ conditionType: 'InPlaceUpdateReady' }];

function inPlaceSpec(podUpdatePolicy: 'InPlaceOnly' | 'ReCreate', container: Record<string, unknown>): StatefulSetInput['spec'] {
  return webSpec(2, {
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy } },
    template: { metadata: { labels: { app: 'web' } }, spec: { readinessGates: inPlaceGates, containers: [{ name: 'main', image: 'nginx:1.25', ...container }] } },
  });
}

describe('the StatefulSet validation webhook', () => {
  describe('InPlaceOnly update rule', () => {
    const old = statefulSet({ spec: inPlaceSpec('InPlaceOnly', {}) });

    it('allows an image change', async () => {
      const { handle } = setup();
      const response = await handle('UPDATE', { object: statefulSet({ spec: inPlaceSpec('InPlaceOnly', { image: 'nginx:1.26' }) }), oldObject: old });
      expect(response.allowed).toBe(true);
    });

    it('refuses any other change of the template spec, naming the field', async () => {
      const { handle } = setup();
      const response = await handle('UPDATE', { object: statefulSet({ spec: inPlaceSpec('InPlaceOnly', { env: [{ name: 'A', value: '1' }] }) }), oldObject: old });
      expect(response.allowed).toBe(false);
      expect(response.status).toMatchObject({ code: 422, reason: 'Invalid' });
      expect(response.status?.message).toBe('StatefulSet "web" is invalid: spec.template.spec: Forbidden: only allowed to update images in spec for InPlaceOnly, but found add /containers/0/env');
    });

    it('does not apply to other policies', async () => {
      const { handle } = setup();
      const response = await handle('UPDATE', { object: statefulSet({ spec: inPlaceSpec('ReCreate', { env: [{ name: 'A', value: '1' }] }) }), oldObject: statefulSet({ spec: inPlaceSpec('ReCreate', {}) }) });
      expect(response.allowed).toBe(true);
    });
  });

  it('refuses a template the API server refuses, at the set field path', async () => {
    const { dryRun, handle } = setup();
    dryRun.refusePod = fakeApiError({
      code: 422,
      reason: 'Invalid',
      message: 'Pod "web-1" is invalid: spec.containers[0].name: Invalid value: "Main"',
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.containers[0].name', message: 'Invalid value: "Main": a lowercase RFC 1123 label must consist of ...' }],
    });
    const response = await handle('CREATE', { object: statefulSet({ spec: webSpec(2) }) });
    expect(response.allowed).toBe(false);
    expect(response.status?.message).toBe('StatefulSet "web" is invalid: spec.template.spec.containers[0].name: Invalid value: "Main": a lowercase RFC 1123 label must consist of ...');
    expect(dryRun.pods.map((pod) => pod.spec?.hostname)).toEqual(['web-1']);
  });

  it('refuses a claim template the API server refuses, at its path', async () => {
    const { dryRun, handle } = setup();
    dryRun.refuseClaim = fakeApiError({ code: 422, reason: 'Invalid', causes: [{ reason: 'FieldValueRequired', field: 'spec.resources[storage]', message: 'Required value' }] });
    const spec = webSpec(1, { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }] });
    const response = await handle('CREATE', { object: statefulSet({ spec }) });
    expect(response.status?.message).toBe('StatefulSet "web" is invalid: spec.volumeClaimTemplates[0].spec.resources[storage]: Required value');
    expect(dryRun.claims.map((claim) => claim.metadata?.name)).toEqual(['data-web-x']);
  });

  it('does not dry-run again an update that leaves the pod as it was', async () => {
    const { dryRun, handle } = setup();
    const old = statefulSet({ spec: webSpec(2) });
    const response = await handle('UPDATE', { object: statefulSet({ spec: webSpec(2, { updateStrategy: { rollingUpdate: { partition: 1 } } }) }), oldObject: old });
    expect(response.allowed).toBe(true);
    expect(dryRun.pods).toEqual([]);
  });

  it('dry-runs a scale-out for the new highest ordinal', async () => {
    const { dryRun, handle } = setup();
    await handle('UPDATE', { object: statefulSet({ spec: webSpec(10) }), oldObject: statefulSet({ spec: webSpec(2) }) });
    expect(dryRun.pods.map((pod) => pod.spec?.hostname)).toEqual(['web-9']);
  });

  it('rejects an object it cannot read', async () => {
    const { handle } = setup();
    const response = await handle('CREATE', { object: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'web' }, spec: { replicas: 'two' } } });
    expect(response.status?.code).toBe(400);
  });
});
