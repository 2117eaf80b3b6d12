import { describe, expect, it } from 'vitest';

import { sidecarSetSchema } from '@kruise-ts/api';
import type { SidecarSet } from '@kruise-ts/api';
import { isWebhookUnavailable } from '@kruise-ts/webhook';
import type { AdmissionRequest } from '@kruise-ts/webhook';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import { admissionRequest } from '@kruise-ts/webhook/testing';
import { fakeLister } from '@kruise-ts/controller-runtime/testing';
import type { AdmissionRequestInput } from '@kruise-ts/webhook/testing';

import { podInjectionHandler } from './pod-injection-handler.ts';

const SET = sidecarSetSchema.parse({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: 'logs' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    namespaceSelector: { matchLabels: { team: 'a' } },
    containers: [{ name: 'logger', image: 'busybox' }],
  },
});
const NAMESPACES: KubeObject[] = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { team: 'a' } } },
];

function handler(sets: SidecarSet[] = [SET]) {
  return podInjectionHandler({
    sidecarSets: fakeLister(() => sets),
    namespaces: fakeLister(() => NAMESPACES),
    revisions: () => [],
    clock: { now: () => Date.parse('2026-11-25T00:00:00Z') },
    random: () => 0,
    synced: () => Promise.resolve(),
  });
}

function request(object: unknown, extra: Partial<AdmissionRequestInput> = {}): AdmissionRequest {
  return admissionRequest({
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: 'pods',
    namespace: 'team-a',
    userInfo: { username: 'system:serviceaccount:kube-system:replicaset-controller' },
    object,
    ...extra,
  });
}

const webPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { generateName: 'web-', labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
};

function decodedPatch(response: { readonly patch?: string }): { op: string; path: string; value?: unknown }[] {
  return JSON.parse(Buffer.from(response.patch ?? '', 'base64').toString('utf8')) as {
    op: string;
    path: string;
    value?: unknown;
  }[];
}

describe('podInjectionHandler', () => {
  it('answers a matching pod created in a matching namespace with a JSON patch that adds the sidecar and the annotations', async () => {
    const response = (await handler()(request(webPod), new AbortController().signal)) as {
      allowed: boolean;
      patchType?: string;
      patch?: string;
    };
    expect(response.allowed).toBe(true);
    expect(response.patchType).toBe('JSONPatch');
    const operations = decodedPatch(response);
    expect(JSON.stringify(operations)).toContain('"logger"');
    expect(JSON.stringify(operations)).toContain('kruise.io/sidecarset-injected-list');
    // The pod's own namespace stays unset: the API server gives it the request's.
    expect(operations.some((operation) => operation.path === '/metadata/namespace')).toBe(false);
  });

  it.each([
    { name: 'another namespace', req: request(webPod, { namespace: 'team-b' }) },
    { name: 'another label', req: request({ ...webPod, metadata: { labels: { app: 'db' } } }) },
    { name: 'an UPDATE', req: request(webPod, { operation: 'UPDATE' }) },
    { name: 'a subresource', req: request(webPod, { subResource: 'status' }) },
    { name: 'another resource', req: request(webPod, { resource: 'configmaps' }) },
    { name: 'a terminal pod', req: request({ ...webPod, status: { phase: 'Succeeded' } }) },
  ])('admits $name unchanged', async ({ req }) => {
    expect(await handler()(req, new AbortController().signal)).toEqual({ allowed: true });
  });

  it.each([null, 'text', 42, { metadata: {} }, { spec: { containers: 'x' } }, [webPod]])(
    'admits an unreadable pod %j unchanged, with a warning',
    async (object) => {
      const response = (await handler()(request(object), new AbortController().signal)) as {
        allowed: boolean;
        warnings?: string[];
        patch?: string;
      };
      expect(response.allowed).toBe(true);
      expect(response.patch).toBeUndefined();
      expect(response.warnings?.[0]).toContain('the pod could not be read');
    },
  );

  // An empty cache would admit the pod without its sidecar: the server answers 503 instead, and the
  // webhook configuration's failurePolicy decides, as when no replica answers (issue 39).
  it('gives no answer, but a WebhookUnavailableError, when the caches cannot sync', async () => {
    const failing = podInjectionHandler({
      sidecarSets: fakeLister(() => [SET]),
      namespaces: fakeLister(() => NAMESPACES),
      revisions: () => [],
      clock: { now: () => 0 },
      random: () => 0,
      synced: () => Promise.reject(new Error('aborted')),
    });
    const outcome = await failing(request(webPod), new AbortController().signal).then(
      (response) => ({ response }),
      (error: unknown) => ({ error }),
    );
    expect(outcome).toEqual({
      error: expect.objectContaining({
        name: 'WebhookUnavailableError',
        message: expect.stringContaining('have not synced (aborted)') as unknown,
      }) as unknown,
    });
    expect('error' in outcome && isWebhookUnavailable(outcome.error)).toBe(true);
  });

  it('waits for the caches before it reads them', async () => {
    const sets: SidecarSet[] = [];
    const synced = Promise.withResolvers<undefined>();
    const waiting = podInjectionHandler({
      sidecarSets: fakeLister(() => sets),
      namespaces: fakeLister(() => NAMESPACES),
      revisions: () => [],
      clock: { now: () => 0 },
      random: () => 0,
      synced: () => synced.promise,
    });
    const answer = waiting(request(webPod), new AbortController().signal);
    sets.push(SET);
    synced.resolve(undefined);
    expect(JSON.stringify(decodedPatch(await answer))).toContain('"logger"');
  });

  it('never throws on random objects', async () => {
    const run = handler();
    for (let index = 0; index < 300; index += 1) {
      const random = JSON.parse(
        JSON.stringify({
          metadata: { labels: index % 2 === 0 ? { app: 'web' } : index },
          spec: { containers: index % 3 === 0 ? [{ name: String(index) }] : [index] },
        }),
      ) as unknown;
      const response = await run(request(random), new AbortController().signal);
      expect(response.allowed).toBe(true);
    }
  });
});
