import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { describe, expect, it } from 'vitest';

import { startLocalCluster } from '@kruise-ts/local-cluster';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import {
  apiListWatcher,
  createClient,
  defineResource,
  Informer,
  isAlreadyExists,
  isNotFound,
  stripManagedFields,
  Transport,
} from '../../src/index.ts';
import type { Client, KubeObject } from '../../src/index.ts';

interface ConfigMap extends KubeObject {
  readonly data?: Record<string, string>;
}

const configMaps = defineResource<ConfigMap>({
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
});
const logger = pino({ level: 'silent' });

function clientFor(kubeConfig: KubeConfig): Client {
  return createClient(new Transport({ kubeConfig, qps: 200, burst: 200, userAgent: 'kruise-ts-test' }));
}

interface Recorded {
  readonly informer: Informer<ConfigMap>;
  readonly events: string[];
  readonly stop: AbortController;
}

function startInformer(
  client: Client,
  scope: { namespace: string; labelSelector?: string; fieldSelector?: string; pageSize?: number },
): Recorded {
  const informer = new Informer<ConfigMap>({
    listWatcher: apiListWatcher(client, { resource: configMaps, ...scope }),
    description: 'configmaps',
    logger,
    transform: stripManagedFields,
    pageSize: scope.pageSize,
    freeze: true,
    backoff: { initialMs: 100, maxMs: 1000 },
  });
  const events: string[] = [];
  informer.addEventHandler({
    onAdd: (o) => events.push(`add ${o.metadata?.name ?? ''}`),
    onUpdate: (a, b) => events.push(`update ${b.metadata?.name ?? ''} ${a.data?.['v'] ?? ''}->${b.data?.['v'] ?? ''}`),
    onDelete: (o) => events.push(`delete ${o.metadata?.name ?? ''} ${o.data?.['v'] ?? ''}`),
  });
  const stop = new AbortController();
  void informer.run(stop.signal);
  return { informer, events, stop };
}

describe('informer on a real apiserver', () => {
  it('lists in pages, filters server-side, and delivers old and new objects and the last state on delete', async () => {
    const kubeConfig = testKubeConfig();
    await using ns = await createTestNamespace(kubeConfig, 'informer');
    const client = clientFor(kubeConfig);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client.create(configMaps, {
          metadata: { name: `cm-${String(i)}`, namespace: ns.name, labels: { watched: 'yes' } },
          data: { v: '0' },
        }),
      ),
    );
    await client.create(configMaps, { metadata: { name: 'other', namespace: ns.name, labels: { watched: 'no' } } });

    const { informer, events, stop } = startInformer(client, {
      namespace: ns.name,
      labelSelector: 'watched=yes',
      pageSize: 5,
    });
    try {
      await waitFor(() => Promise.resolve(informer.hasSynced()), { description: 'the informer to sync' });
      expect(informer.lister().list()).toHaveLength(12);
      expect(informer.lister().list()[0]?.metadata).not.toHaveProperty('managedFields');

      await client.patch(
        configMaps,
        { namespace: ns.name, name: 'cm-0' },
        { type: 'merge', body: { data: { v: '1' } } },
      );
      await client.delete(configMaps, { namespace: ns.name, name: 'cm-1' });
      await client.create(configMaps, {
        metadata: { name: 'late', namespace: ns.name, labels: { watched: 'yes' } },
        data: { v: '0' },
      });
      await client.patch(
        configMaps,
        { namespace: ns.name, name: 'other' },
        { type: 'merge', body: { data: { v: '9' } } },
      );
      await waitFor(() => Promise.resolve(events.includes('add late')), { description: 'the add of late' });
      expect(events.filter((e) => !e.startsWith('add cm-'))).toEqual(['update cm-0 0->1', 'delete cm-1 0', 'add late']);
      expect(informer.stats().lists).toBe(1);
    } finally {
      stop.abort();
    }
  });

  it('keeps delivering across a kube-apiserver restart, missing nothing', async () => {
    const runDir = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-informer-restart-'));
    try {
      await using cluster = await startLocalCluster({
        name: 'informer-restart',
        runDir,
        nodes: 1,
        handleSignals: false,
      });
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromFile(cluster.kubeconfigPath);
      const client = clientFor(kubeConfig);
      const { informer, events, stop } = startInformer(client, { namespace: 'default', labelSelector: 'restart=test' });
      try {
        await waitFor(() => Promise.resolve(informer.hasSynced()), { description: 'the informer to sync' });
        // A writer that keeps creating, changing and deleting objects, retrying through the outage.
        const written = writeThroughOutage(client, 40);
        await waitFor(() => Promise.resolve(events.length >= 10), { description: 'the first events' });
        await cluster.restartComponent('kube-apiserver');
        const { created, deleted } = await written;

        const expected = created.filter((name) => !deleted.includes(name)).sort();
        await waitFor(
          () => Promise.resolve(JSON.stringify(cachedNames(informer)) === JSON.stringify(expected) ? true : undefined),
          {
            description: 'the cache to match the server after the restart',
            timeoutMs: 60_000,
          },
        );
        for (const name of created) {
          expect(events).toContain(`add ${name}`);
        }
        for (const name of deleted) {
          expect(events.some((e) => e.startsWith(`delete ${name} `))).toBe(true);
        }
        expect(informer.stats().watches).toBeGreaterThanOrEqual(2);
      } finally {
        stop.abort();
      }
    } finally {
      await rm(runDir, { recursive: true, force: true });
    }
  });
});

function cachedNames(informer: Informer<ConfigMap>): string[] {
  return informer
    .lister()
    .list()
    .map((o) => o.metadata?.name ?? '')
    .sort();
}

/** Creates `count` objects one by one (every third one is deleted again), retrying each write until it lands. */
async function writeThroughOutage(client: Client, count: number): Promise<{ created: string[]; deleted: string[] }> {
  const created: string[] = [];
  const deleted: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `obj-${String(i)}`;
    await retry(
      () =>
        client.create(configMaps, {
          metadata: { name, namespace: 'default', labels: { restart: 'test' } },
          data: { v: '0' },
        }),
      isAlreadyExists,
    );
    created.push(name);
    if (i % 3 === 0) {
      await retry(() => client.delete(configMaps, { namespace: 'default', name }), isNotFound);
      deleted.push(name);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { created, deleted };
}

async function retry(write: () => Promise<unknown>, alreadyDone: (error: unknown) => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      await write();
      return;
    } catch (error) {
      // A write whose answer was lost in the outage may have landed: then it is done.
      if (alreadyDone(error)) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('write did not succeed through the outage');
}
