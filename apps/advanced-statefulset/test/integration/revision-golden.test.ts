/**
 * Golden vectors for the Advanced StatefulSet's ControllerRevisions: the controller creates each
 * set's revision on the real API server; the stored set (read back as JSON) goes through OpenKruise's
 * own steps in Go (packages/revision/test/golden-go, mode `sts`: decode into kruise-api's
 * apps/v1beta1 StatefulSet, encode, getPatch, HashControllerRevision); the revision's name, hash
 * label and data, and the set's status.updateRevision must be what Go computes.
 */
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import type { StatefulSet } from '@kruise-ts/api';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { buildGoProgram, runGoProgram, testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { controllerRevisionResource } from '@kruise-ts/revision';

import { statefulSetResource } from '../../src/index.ts';
import { createStatefulSet, dbStatefulSet, waitForSet, withController } from '../support/harness.ts';
import type { StatefulSetManifest } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

interface GoVector {
  readonly raw?: string;
  readonly hashes: readonly [string, string];
  readonly error?: string;
}

/** Sets whose templates differ in the ways a stored template can: docs samples, quantities, probes, odd metadata. */
const SETS: readonly StatefulSetManifest[] = [
  { ...dbStatefulSet(1), metadata: { name: 'plain' } },
  {
    metadata: { name: 'docs-sample', annotations: { team: 'storage' } },
    spec: {
      replicas: 2,
      serviceName: 'docs-sample',
      podManagementPolicy: 'Parallel',
      reserveOrdinals: [1, '3-4'],
      selector: { matchLabels: { app: 'docs-sample' } },
      template: {
        metadata: { labels: { app: 'docs-sample' }, annotations: { 'prometheus.io/scrape': 'true' } },
        spec: {
          readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
          containers: [
            {
              name: 'main',
              image: 'nginx:alpine',
              ports: [{ containerPort: 80, name: 'web' }],
              volumeMounts: [{ name: 'www', mountPath: '/usr/share/nginx/html' }],
            },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'www' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: {
          podUpdatePolicy: 'InPlaceIfPossible',
          maxUnavailable: '20%',
          inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
        },
      },
    },
  },
  {
    metadata: { name: 'quantities' },
    spec: {
      replicas: 1,
      serviceName: 'quantities',
      selector: { matchLabels: { app: 'quantities' } },
      template: {
        metadata: { labels: { app: 'quantities', tier: 'db' } },
        spec: {
          terminationGracePeriodSeconds: 5,
          containers: [
            {
              name: 'main',
              image: 'postgres:16',
              env: [
                { name: 'PGDATA', value: '/data' },
                { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              ],
              resources: { requests: { cpu: '0.5', memory: '1024Mi' }, limits: { cpu: '1500m', memory: '2Gi' } },
              readinessProbe: { tcpSocket: { port: 5432 }, periodSeconds: 5 },
            },
          ],
          initContainers: [{ name: 'init', image: 'busybox', command: ['sh', '-c', 'true'] }],
        },
      },
    },
  },
];

let vectors: readonly GoVector[] = [];
let stored: readonly StatefulSet[] = [];

async function storedSetsAfterReconcile(
  namespace: string,
  manifests: readonly StatefulSetManifest[],
): Promise<StatefulSet[]> {
  for (const set of manifests) {
    await createStatefulSet(client, namespace, set);
  }
  return Promise.all(
    manifests.map((set) =>
      waitForSet(
        client,
        { namespace, name: set.metadata.name ?? '', description: 'an update revision in the status' },
        (current) =>
          (current.status?.updateRevision ?? '') !== '' &&
          current.status?.observedGeneration === current.metadata.generation,
      ),
    ),
  );
}

async function goVectors(sets: readonly StatefulSet[]): Promise<GoVector[]> {
  const binary = await buildGoProgram({
    name: 'revision-golden-go',
    moduleDir: fileURLToPath(new URL('../../../../packages/revision/test/golden-go/', import.meta.url)),
    binary: 'golden-go',
    logPrefix: 'revision',
  });
  return JSON.parse(await runGoProgram(binary, JSON.stringify(sets), ['sts'])) as GoVector[];
}

/** A second revision of a set: a new image; returns the set once the controller observed it. */
async function changeImage(namespace: string, set: StatefulSet | undefined): Promise<StatefulSet> {
  if (set === undefined) {
    throw new Error('no set to change');
  }
  const containers = (set.spec.template.spec?.containers ?? []).map((container) => ({
    ...container,
    image: 'nginx:1.27-alpine',
  }));
  const name = set.metadata.name ?? '';
  await client.patch(
    statefulSetResource,
    { namespace, name },
    { type: 'merge', body: { spec: { template: { spec: { containers } } } } },
  );
  return waitForSet(
    client,
    { namespace, name, description: 'the second revision' },
    (current) =>
      current.status?.observedGeneration === current.metadata.generation &&
      current.status?.updateRevision !== set.status?.updateRevision,
  );
}

describe('Advanced StatefulSet revisions match OpenKruise byte for byte', () => {
  let namespace = '';
  let done: () => void = () => undefined;

  beforeAll(async () => {
    // The namespace and the controller live until every case has read what it needs.
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    let ready: () => void = () => undefined;
    const prepared = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const run = withController('asts-golden', async (ns) => {
      namespace = ns;
      stored = await storedSetsAfterReconcile(ns, SETS);
      stored = [...stored, await changeImage(ns, stored[1])];
      vectors = await goVectors(stored);
      ready();
      await finished;
    });
    await Promise.race([prepared, run]);
    return async () => {
      done();
      await run;
    };
  }, 600_000);

  it('Go decodes every stored set', () => {
    expect(vectors).toHaveLength(SETS.length + 1);
    for (const vector of vectors) {
      expect(vector.error).toBeUndefined();
    }
  });

  it.each([
    ...SETS.map((set, index) => ({ name: set.metadata.name ?? '', index })),
    { name: 'docs-sample after an image change', index: SETS.length },
  ])('$name', async ({ index }) => {
    const set = stored[index];
    const vector = vectors[index];
    if (set === undefined || vector?.raw === undefined) {
      throw new Error(`no stored set or vector ${String(index)}`);
    }
    const expectedName = `${set.metadata.name ?? ''}-${vector.hashes[0]}`;
    expect(set.status?.updateRevision).toBe(expectedName);
    const revision = await client.get(controllerRevisionResource, { namespace, name: expectedName });
    expect(revision.metadata?.labels?.['controller.kubernetes.io/hash']).toBe(vector.hashes[0]);
    // The API server stores RawExtension data as JSON; equal values mean equal bytes (the order of Go's keys is sorted on both sides).
    expect(revision.data).toEqual(JSON.parse(vector.raw));
    expect(JSON.stringify(revision.data)).toBe(vector.raw);
  });
});
