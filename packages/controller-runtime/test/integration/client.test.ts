import { describe, expect, it } from 'vitest';

import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import {
  ApiError,
  createClient,
  defineResource,
  isAlreadyExists,
  isConflict,
  isInvalid,
  isNotFound,
  Transport,
} from '../../src/index.ts';
import type { KubeObject, RequestRecord } from '../../src/index.ts';

interface ConfigMap extends KubeObject {
  readonly data?: Record<string, string>;
}
interface PodLike extends KubeObject {
  readonly spec?: unknown;
  readonly status?: { readonly conditions?: readonly { type: string; status: string }[] };
}

const configMaps = defineResource<ConfigMap>({
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
});
const pods = defineResource<PodLike>({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });
const kubeConfig = testKubeConfig();

function client(records: RequestRecord[] = [], limits = { qps: 100, burst: 100 }): ReturnType<typeof createClient> {
  return createClient(
    new Transport({
      kubeConfig,
      ...limits,
      userAgent: 'kruise-ts-test',
      observer: { observeRequest: (r) => records.push(r) },
    }),
  );
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('client', () => {
  it('creates, gets, lists, updates and deletes, mapping failures to typed errors', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'client-crud');
    const c = client();
    const created = await c.create(configMaps, { metadata: { name: 'a', namespace: ns.name }, data: { k: 'v' } });
    expect(created).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' } });
    expect(isAlreadyExists(await failure(c.create(configMaps, { metadata: { name: 'a', namespace: ns.name } })))).toBe(
      true,
    );

    const updated = await c.update(configMaps, { ...created, data: { k: 'v2' } });
    expect(isConflict(await failure(c.update(configMaps, { ...created, data: { k: 'stale' } })))).toBe(true);
    expect((await c.get(configMaps, { namespace: ns.name, name: 'a' })).data).toEqual({ k: 'v2' });

    const listed = await c.list(configMaps, { namespace: ns.name, labelSelector: '' });
    expect(listed.items.map((i) => [i.kind, i.metadata?.name])).toContainEqual(['ConfigMap', 'a']);
    expect(Number(listed.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(updated.metadata?.resourceVersion));

    const invalid = await failure(c.create(configMaps, { metadata: { name: 'Not_Valid', namespace: ns.name } }));
    expect(isInvalid(invalid)).toBe(true);
    expect(invalid.causes.map((cause) => cause.field)).toContain('metadata.name');

    await c.delete(configMaps, { namespace: ns.name, name: 'a' });
    expect(isNotFound(await failure(c.get(configMaps, { namespace: ns.name, name: 'a' })))).toBe(true);
  });

  it('patches with merge, JSON, strategic merge and server-side apply, and honours dry-run', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'client-patch');
    const c = client();
    const key = { namespace: ns.name, name: 'p' };
    await c.create(configMaps, { metadata: { name: 'p', namespace: ns.name }, data: { a: '1' } });
    await c.patch(configMaps, key, { type: 'merge', body: { data: { b: '2' } } });
    await c.patch(configMaps, key, { type: 'json', body: [{ op: 'add', path: '/data/c', value: '3' }] });
    await c.patch(configMaps, key, { type: 'strategic', body: { metadata: { labels: { s: 'y' } } } });
    const applied = await c.patch(configMaps, key, {
      type: 'apply',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' }, data: { d: '4' } },
      fieldManager: 'test-apply',
      force: true,
    });
    expect(applied.data).toEqual({ a: '1', b: '2', c: '3', d: '4' });
    expect(applied.metadata?.labels).toEqual({ s: 'y' });

    await c.create(configMaps, { metadata: { name: 'dry', namespace: ns.name } }, { dryRun: true });
    expect(isNotFound(await failure(c.get(configMaps, { namespace: ns.name, name: 'dry' })))).toBe(true);
  });

  it('patches the status subresource only', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'client-status');
    const c = client();
    await c.create(pods, {
      metadata: { name: 'p', namespace: ns.name },
      spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
    });
    const patched = await c.patchStatus(
      pods,
      { namespace: ns.name, name: 'p' },
      { type: 'strategic', body: { status: { conditions: [{ type: 'kruise-ts.io/test', status: 'True' }] } } },
    );
    expect(patched.status?.conditions).toContainEqual(
      expect.objectContaining({ type: 'kruise-ts.io/test', status: 'True' }),
    );
  });

  it('lists across pages', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'client-pages');
    const c = client();
    await Promise.all(
      Array.from({ length: 23 }, (_, i) =>
        c.create(configMaps, { metadata: { name: `cm-${String(i)}`, namespace: ns.name, labels: { paged: 'yes' } } }),
      ),
    );
    const first = await c.list(configMaps, { namespace: ns.name, labelSelector: 'paged=yes', limit: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.metadata.continue).toBeTruthy();
    const all = await c.listAll(configMaps, { namespace: ns.name, labelSelector: 'paged=yes', limit: 10 });
    expect(new Set(all.items.map((i) => i.metadata?.name)).size).toBe(23);
  });

  it('throttles itself to the configured QPS and reports every request', async () => {
    const records: RequestRecord[] = [];
    const c = client(records, { qps: 20, burst: 1 });
    await Promise.all(Array.from({ length: 5 }, () => c.list(configMaps, { namespace: 'default', limit: 1 })));
    expect(records).toHaveLength(5);
    expect(records.every((r) => r.verb === 'list' && r.method === 'GET' && r.code === '200')).toBe(true);
    // With burst 1 every request but the first waited for a token.
    expect(records.filter((r) => r.rateLimiterSeconds > 0.01).length).toBeGreaterThanOrEqual(4);
  });
});
