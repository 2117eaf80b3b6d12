/**
 * ensureUpdateRevision against a real kube-apiserver: names, idempotence, rollback, collisions, and the
 * bytes the API server stores (and serves to OpenKruise) for `data`.
 */
import { text as streamText } from 'node:stream/consumers';

import type { ControllerRevision, PodTemplateSpec } from '@kruise-ts/api';
import {
  ApiError,
  createClient,
  defineResource,
  isInvalid,
  resourceClient,
  resourcePath,
  Transport,
} from '@kruise-ts/controller-runtime';
import type { Client, KubeObject, ResourceClient } from '@kruise-ts/controller-runtime';
import { bucketLabels } from '@kruise-ts/sharding';
import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { describe, expect, it } from 'vitest';

import {
  controllerRevisionResource,
  ensureUpdateRevision,
  equalRevision,
  hashRevision,
  revisionData,
  templateFromRevision,
} from '../../src/index.ts';
import type { RevisionOwner } from '../../src/index.ts';

const kubeConfig = testKubeConfig();
const configMaps = defineResource<KubeObject>({
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
});

function client(): Client {
  return createClient(new Transport({ kubeConfig, qps: 100, burst: 100, userAgent: 'kruise-ts-revision-test' }));
}

function revisionsOf(c: Client): ResourceClient<ControllerRevision> {
  return resourceClient(c, controllerRevisionResource);
}

/** A real owner, so that the garbage collector leaves the revisions alone. */
async function createOwner(c: Client, namespace: string): Promise<RevisionOwner> {
  const created = await c.create(configMaps, { metadata: { name: 'owner', namespace } });
  return { name: 'owner', namespace, uid: created.metadata?.uid ?? '', apiVersion: 'v1', kind: 'ConfigMap' };
}

/** Characters where Go's and JavaScript's JSON differ: HTML, separators, integer-like keys. */
function template(image: string): PodTemplateSpec {
  return {
    metadata: { labels: { app: 'rev', '10': 'ten', '9': 'nine' }, annotations: { note: '<b>a & b</b>\u2028' } },
    spec: {
      containers: [
        { name: 'main', image, resources: { limits: { cpu: '1000m' } }, env: [{ name: 'X', value: '<&>' }] },
      ],
    },
  };
}

/** The `data` member exactly as the API server serves it, from the raw response text. */
async function servedData(c: Client, key: { namespace: string; name: string }): Promise<string> {
  const response = await c.transport.stream({
    verb: 'get',
    method: 'GET',
    path: resourcePath(controllerRevisionResource, key),
  });
  const text = await streamText(response.body);
  return /"data":(\{.*\}),"revision":\d+\}\s*$/.exec(text)?.[1] ?? `<no data in ${text}>`;
}

async function list(c: Client, namespace: string): Promise<ControllerRevision[]> {
  return (await c.list(controllerRevisionResource, { namespace })).items;
}

describe('ensureUpdateRevision on a real API server', () => {
  it('creates a revision named by its hash whose stored bytes are exactly the Go data', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'revision-create');
    const c = client();
    const owner = await createOwner(c, ns.name);
    const raw = revisionData(template('app:v1'));
    const hash = hashRevision(raw, 0);

    const result = await ensureUpdateRevision({
      client: revisionsOf(c),
      owner,
      template: template('app:v1'),
      ownerAnnotations: { 'example.com/a': 'b' },
      revisions: [],
      collisionCount: 0,
    });

    expect(result.collisionCount).toBe(0);
    expect(result.updateRevision.metadata?.name).toBe(`owner-${hash}`);
    // The candidate's labels, the hash, and the owner's bucket (docs/sharding.md).
    expect(result.updateRevision.metadata?.labels).toEqual({
      app: 'rev',
      '10': 'ten',
      '9': 'nine',
      'controller.kubernetes.io/hash': hash,
      ...bucketLabels(owner.namespace, owner.name),
    });
    expect(result.updateRevision.metadata?.annotations).toEqual({ 'example.com/a': 'b' });
    expect(result.updateRevision.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        name: 'owner',
        uid: owner.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(result.updateRevision.revision).toBe(1);
    expect(result.revisions.map((revision) => revision.metadata?.name)).toEqual([`owner-${hash}`]);

    const stored = await c.get(controllerRevisionResource, { namespace: ns.name, name: `owner-${hash}` });
    expect(equalRevision(stored, raw)).toBe(true);
    // What OpenKruise reads: HTML escapes, Go key order (10 before 9) and all, byte for byte.
    expect(await servedData(c, { namespace: ns.name, name: `owner-${hash}` })).toBe(raw);
    expect(revisionData(templateFromRevision(stored))).toBe(raw);
  });

  it('is idempotent, also when the revision is missing from the caller’s list', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'revision-idempotent');
    const c = client();
    const owner = await createOwner(c, ns.name);
    const first = await ensureUpdateRevision({
      client: revisionsOf(c),
      owner,
      template: template('app:v1'),
      revisions: [],
      collisionCount: 0,
    });

    const again = await ensureUpdateRevision({
      client: revisionsOf(c),
      owner,
      template: template('app:v1'),
      revisions: await list(c, ns.name),
      collisionCount: 0,
    });
    expect(again.updateRevision.metadata?.resourceVersion).toBe(first.updateRevision.metadata?.resourceVersion);

    const stale = await ensureUpdateRevision({
      client: revisionsOf(c),
      owner,
      template: template('app:v1'),
      revisions: [],
      collisionCount: 0,
    });
    expect(stale.collisionCount).toBe(0);
    expect(stale.updateRevision.metadata?.name).toBe(first.updateRevision.metadata?.name);
    expect(await list(c, ns.name)).toHaveLength(1);
  });

  it('rolls back by renumbering the older equal revision, keeping its data bytes', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'revision-rollback');
    const c = client();
    const owner = await createOwner(c, ns.name);
    const v1 = await ensureUpdateRevision({
      client: revisionsOf(c),
      owner,
      template: template('app:v1'),
      revisions: [],
      collisionCount: 0,
    });
    const v2 = await ensureUpdateRevision({
      client: revisionsOf(c),
      owner,
      template: template('app:v2'),
      revisions: v1.revisions,
      collisionCount: 0,
    });
    expect(v2.updateRevision.revision).toBe(2);

    const back = await ensureUpdateRevision({
      client: revisionsOf(c),
      owner,
      template: template('app:v1'),
      revisions: await list(c, ns.name),
      collisionCount: 0,
      reuseAnnotations: { 'kruise.io/cloneset-volumeclaimtemplate-hash': '' },
    });

    expect(back.updateRevision.metadata?.name).toBe(v1.updateRevision.metadata?.name);
    expect(back.updateRevision.revision).toBe(3);
    expect(back.updateRevision.metadata?.annotations).toEqual({ 'kruise.io/cloneset-volumeclaimtemplate-hash': '' });
    const revisions = await list(c, ns.name);
    expect(revisions.map((revision) => [revision.metadata?.name, revision.revision]).sort()).toEqual(
      [
        [v1.updateRevision.metadata?.name, 3],
        [v2.updateRevision.metadata?.name, 2],
      ].sort(),
    );
    expect(await servedData(c, { namespace: ns.name, name: v1.updateRevision.metadata?.name ?? '' })).toBe(
      revisionData(template('app:v1')),
    );
  });

  it('needs the merge patch: an update re-serialises data, which the API server rejects as immutable', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'revision-immutable');
    const c = client();
    const owner = await createOwner(c, ns.name);
    const { updateRevision } = await ensureUpdateRevision({
      client: revisionsOf(c),
      owner,
      template: template('app:v1'),
      revisions: [],
      collisionCount: 0,
    });
    const stored = await c.get(controllerRevisionResource, {
      namespace: ns.name,
      name: updateRevision.metadata?.name ?? '',
    });

    const error: unknown = await c
      .update(controllerRevisionResource, { ...stored, revision: 9 })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(isInvalid(error)).toBe(true);
    expect((error as ApiError).message).toContain('field is immutable');
  });

  it('escapes a hash collision by incrementing collisionCount', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'revision-collision');
    const c = client();
    const owner = await createOwner(c, ns.name);
    const raw = revisionData(template('app:v1'));
    const takenName = `owner-${hashRevision(raw, 0)}`;
    await c.create(controllerRevisionResource, {
      metadata: { name: takenName, namespace: ns.name },
      data: { something: 'else' },
      revision: 1,
    });

    const result = await ensureUpdateRevision({
      client: revisionsOf(c),
      owner,
      template: template('app:v1'),
      revisions: [],
      collisionCount: 0,
    });

    expect(result.collisionCount).toBe(1);
    expect(result.updateRevision.metadata?.name).toBe(`owner-${hashRevision(raw, 1)}`);
    expect(result.updateRevision.metadata?.labels?.['controller.kubernetes.io/hash']).toBe(hashRevision(raw, 1));
    expect(await servedData(c, { namespace: ns.name, name: result.updateRevision.metadata?.name ?? '' })).toBe(raw);
  });
});
