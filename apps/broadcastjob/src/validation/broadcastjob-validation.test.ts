import { describe, expect, it } from 'vitest';

import type { BroadcastJob, Pod } from '@kruise-ts/api';
import type { AdmissionResponse } from '@kruise-ts/webhook';
import { admissionRequest } from '@kruise-ts/webhook/testing';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
import { TemplateValidator, validationHandler } from '@kruise-ts/template-validation';

import { broadcastJob } from '../../test/fixtures/reconcile-fixture.ts';
import { broadcastJobValidation } from './broadcastjob-validation.ts';

interface Setup {
  readonly pods: Pod[];
  refuse: Error | undefined;
  handle(operation: 'CREATE' | 'UPDATE', objects: { object: unknown; oldObject?: unknown }): Promise<AdmissionResponse>;
}

function setup(): Setup {
  const state: Setup = {
    pods: [],
    refuse: undefined,
    handle: (operation, objects) => {
      const request = admissionRequest({
        kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'BroadcastJob' },
        resource: 'broadcastjobs',
        name: 'job',
        namespace: 'ns',
        operation,
        ...objects,
      });
      return handler(request, new AbortController().signal);
    },
  };
  const dryRun = {
    createPod: (pod: Pod) => {
      state.pods.push(pod);
      return state.refuse === undefined ? Promise.resolve() : Promise.reject(state.refuse);
    },
    createClaim: () => Promise.reject(new Error('a BroadcastJob has no claims')),
  };
  const handler = validationHandler(
    broadcastJobValidation({ assignPodsByScheduler: true }),
    new TemplateValidator({ dryRun }),
  );
  return state;
}

function withEnv(job: BroadcastJob): BroadcastJob {
  const spec = job.spec.template.spec;
  const containers = [{ name: 'work', image: 'busybox:1.36', env: [{ name: 'A', value: '1' }] }];
  return { ...job, spec: { ...job.spec, template: { ...job.spec.template, spec: { ...spec, containers } } } };
}

describe('the BroadcastJob validation webhook', () => {
  it('refuses a template the API server refuses, at the job field path', async () => {
    const state = setup();
    state.refuse = fakeApiError({
      code: 422,
      reason: 'Invalid',
      causes: [
        { reason: 'FieldValueNotSupported', field: 'spec.restartPolicy', message: 'Unsupported value: "Sometimes"' },
      ],
    });
    const response = await state.handle('CREATE', { object: broadcastJob() });
    expect(response.allowed).toBe(false);
    expect(response.status).toMatchObject({
      code: 422,
      message: 'BroadcastJob "job" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Sometimes"',
    });
    expect(state.pods.map((pod) => pod.metadata?.generateName)).toEqual(['job-']);
  });

  it('allows a template the API server accepts', async () => {
    const state = setup();
    expect((await state.handle('CREATE', { object: broadcastJob() })).allowed).toBe(true);
  });

  it('has no update rule of its own: a template change is dry-run, nothing else', async () => {
    const state = setup();
    const old = broadcastJob();
    expect((await state.handle('UPDATE', { object: withEnv(old), oldObject: old })).allowed).toBe(true);
    expect(state.pods).toHaveLength(1);
  });

  it('does not dry-run again an update that leaves the template alone', async () => {
    const state = setup();
    const response = await state.handle('UPDATE', {
      object: broadcastJob({ spec: { paused: true } }),
      oldObject: broadcastJob(),
    });
    expect(response.allowed).toBe(true);
    expect(state.pods).toEqual([]);
  });
});
