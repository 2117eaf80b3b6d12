/**
 * The pod cache over protobuf, on a real API server: an informer reading pods in protobuf with the pod
 * cache's field filter holds the same objects as one reading them as JSON with the transform alone,
 * through adds, updates (spec and status) and deletes; and `apiContentType: 'json'` (the
 * `--api-content-type=json` fallback) asks for JSON only.
 */
import { isDeepStrictEqual } from 'node:util';

import pino from 'pino';
import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { createClient, InformerFactory, Transport } from '@kruise-ts/controller-runtime';
import type { ApiContentType, Client, RequestRecord } from '@kruise-ts/controller-runtime';
import { PROTOBUF_MEDIA_TYPE, PROTOBUF_WATCH_MEDIA_TYPE } from '@kruise-ts/kube-protobuf';
import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { podResource, trimCachedPods } from '../../src/index.ts';

const kubeConfig = testKubeConfig();

interface Reader {
  readonly transport: Transport;
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly records: RequestRecord[];
}

function reader(apiContentType: ApiContentType): Reader {
  const records: RequestRecord[] = [];
  const transport = new Transport({
    kubeConfig,
    qps: 100,
    burst: 100,
    userAgent: 'kruise-ts-test',
    apiContentType,
    observer: { observeRequest: (record) => records.push(record) },
  });
  const client = createClient(transport);
  const informers = new InformerFactory({ client, logger: pino({ level: 'silent' }), freeze: true });
  trimCachedPods(informers);
  return { transport, client, informers, records };
}

function pod(name: string, namespace: string): Pod {
  return {
    metadata: { name, namespace, labels: { app: 'web' }, annotations: { note: 'x'.repeat(100) } },
    spec: {
      containers: [
        { name: 'c', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', env: [{ name: 'A', value: '1' }] },
      ],
      initContainers: [{ name: 'init', image: 'busybox' }],
      tolerations: [{ key: 'k', operator: 'Exists' }],
      readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
      terminationGracePeriodSeconds: 0,
    },
  };
}

describe('the pod cache over protobuf and over JSON', () => {
  it('holds the same pods through adds, updates and deletes', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'pod-cache-protobuf');
    const protobuf = reader('protobuf');
    const json = reader('json');
    const abort = new AbortController();
    const caches = [protobuf, json].map(({ informers }) => {
      const informer = informers.informerFor({ resource: podResource, namespace: ns.name });
      informers.start(abort.signal);
      return informer;
    });
    const cached = (index: number): Pod[] =>
      [...(caches[index]?.lister().list() ?? [])].sort((a, b) =>
        (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
      ) as Pod[];
    // Both caches at the same versions of the same pods, and equal (the fake kubelet may still be
    // updating them: polled until they agree).
    const same = async (count: number): Promise<void> => {
      await expect
        .poll(() => cached(0).length === count && isDeepStrictEqual(cached(0), cached(1)), { timeout: 20_000 })
        .toBe(true);
    };
    try {
      const client = json.client;
      await client.create(podResource, pod('before-0', ns.name));
      await protobuf.informers.waitForCacheSync(abort.signal, 20_000);
      await json.informers.waitForCacheSync(abort.signal, 20_000);
      await Promise.all([1, 2, 3].map((i) => client.create(podResource, pod(`pod-${String(i)}`, ns.name))));
      await same(4);
      expect(cached(0)[0]?.spec).not.toHaveProperty('tolerations');
      expect(cached(0)[0]?.metadata).not.toHaveProperty('managedFields');

      await client.patch(
        podResource,
        { namespace: ns.name, name: 'pod-1' },
        { type: 'merge', body: { metadata: { labels: { v: '2' } } } },
      );
      const probed = '2026-11-29T07:00:00Z';
      const condition = {
        type: 'InPlaceUpdateReady',
        status: 'True',
        lastProbeTime: probed,
        lastTransitionTime: probed,
      };
      const status = { type: 'merge', body: { status: { conditions: [condition] } } } as const;
      await client.patchStatus(podResource, { namespace: ns.name, name: 'pod-2' }, status);
      await same(4);
      // The fake kubelet may replace the conditions again; what never reaches either cache is lastProbeTime.
      expect(JSON.stringify(cached(0))).not.toContain('lastProbeTime');

      await client.delete(podResource, { namespace: ns.name, name: 'pod-3' }, { gracePeriodSeconds: 0 });
      await same(3);
    } finally {
      abort.abort();
    }
    const reads = (records: RequestRecord[]): RequestRecord[] =>
      records.filter((record) => record.verb === 'list' || record.verb === 'watch');
    expect(reads(protobuf.records).length).toBeGreaterThan(1);
    expect(reads(protobuf.records).every((record) => record.accept?.startsWith(PROTOBUF_MEDIA_TYPE) === true)).toBe(
      true,
    );
    expect(reads(json.records).length).toBeGreaterThan(1);
    expect(json.records.every((record) => record.accept === 'application/json')).toBe(true);
  });

  it('is answered in protobuf for lists and watches, as asked', async () => {
    const { transport } = reader('protobuf');
    const path = '/api/v1/namespaces/default/pods';
    const protobuf = { resource: 'pods' };
    const list = await transport.stream({ verb: 'list', method: 'GET', path, protobuf });
    expect(list.contentType).toBe(PROTOBUF_MEDIA_TYPE);
    await drain(list.body);
    const query = { watch: 'true', timeoutSeconds: 1 };
    const watch = await transport.stream({ verb: 'watch', method: 'GET', path, query, protobuf });
    expect(watch.contentType).toBe(PROTOBUF_WATCH_MEDIA_TYPE);
    await drain(watch.body);
  });
});

/** Reads a body to its end (the watch's ends with its one-second timeout), so that no request is left open. */
async function drain(body: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const chunk of body) {
    expect(chunk).toBeInstanceOf(Uint8Array);
  }
}
