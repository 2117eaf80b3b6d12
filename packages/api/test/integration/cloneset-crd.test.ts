/**
 * The generated CloneSet CRD installed on a real kube-apiserver: it becomes Established with the schema
 * we generated, the API server applies the webhook-equivalent defaults, keeps the selector immutable,
 * refuses InPlaceOnly container changes other than images that CEL can see, prunes unknown spec fields
 * but keeps unknown pod template fields, and serves the scale subresource (with the spec rules).
 */
import { readFile } from 'node:fs/promises';

import type { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { ApiextensionsV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load as parse } from 'js-yaml';

import { cloneSetSchema } from '../../src/index.ts';
import type { JsonObject } from '../support/cloneset-api.ts';
import {
  CLONESET_CRD_FILE,
  CLONESETS,
  installCloneSetCrd,
  mergePatch,
  rejectionOf,
  validCloneSet,
} from '../support/cloneset-api.ts';

const mergePatchHeader = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

describe('CloneSet CRD on a real API server', () => {
  let kubeConfig: KubeConfig;
  let api: CustomObjectsApi;
  let namespace: TestNamespace;

  beforeAll(async () => {
    kubeConfig = testKubeConfig();
    api = await installCloneSetCrd(kubeConfig);
    namespace = await createTestNamespace(kubeConfig, 'cloneset-crd');
  });

  afterAll(async () => {
    await namespace[Symbol.asyncDispose]();
  });

  const target = (): { group: string; version: string; plural: string; namespace: string } => ({
    ...CLONESETS,
    namespace: namespace.name,
  });
  const create = async (body: JsonObject): Promise<JsonObject> =>
    (await api.createNamespacedCustomObject({ ...target(), body })) as JsonObject;
  const read = async (name: string): Promise<JsonObject> =>
    (await api.getNamespacedCustomObject({ ...target(), name })) as JsonObject;

  it('is Established and serves exactly the generated versions', async () => {
    const generated = parse(await readFile(CLONESET_CRD_FILE, 'utf8')) as {
      spec: { versions: unknown[]; names: unknown; scope: string };
    };
    const installed = await kubeConfig
      .makeApiClient(ApiextensionsV1Api)
      .readCustomResourceDefinition({ name: 'clonesets.apps.kruise.io' });
    expect(installed.status?.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'Established', status: 'True' })]),
    );
    expect(installed.status?.acceptedNames).toMatchObject({
      kind: 'CloneSet',
      plural: 'clonesets',
      singular: 'cloneset',
      shortNames: ['clone'],
    });
    expect(installed.spec.scope).toBe(generated.spec.scope);
    expect(installed.spec.versions.map((version) => [version.name, version.served, version.storage])).toEqual([
      ['v1alpha1', true, true],
    ]);
    // The stored schema equals the generated one: nothing was lost between the file and the API server.
    const raw = (await api.getClusterCustomObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      name: 'clonesets.apps.kruise.io',
    })) as { spec: { versions: unknown[] } };
    expect(raw.spec.versions).toEqual(generated.spec.versions);
  });

  it('applies the defaults of the mutating webhook to a minimal CloneSet', async () => {
    const minimal = mergePatch(validCloneSet('minimal'), { spec: { replicas: null } }) as JsonObject;
    await create(minimal);
    const stored = await read('minimal');
    expect(stored['spec']).toMatchObject({
      replicas: 1,
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 },
    });
    // What the API server stored parses with our schema, which fills in nothing more.
    expect(cloneSetSchema.parse(stored)).toEqual(stored);
  });

  it('fills the defaults of a partly given updateStrategy', async () => {
    await create(
      mergePatch(validCloneSet('partial-strategy'), {
        spec: { updateStrategy: { type: 'InPlaceIfPossible', maxSurge: '50%' } },
      }) as JsonObject,
    );
    expect((await read('partial-strategy'))['spec']).toMatchObject({
      updateStrategy: { type: 'InPlaceIfPossible', partition: 0, maxUnavailable: '20%', maxSurge: '50%' },
    });
  });

  it('prunes unknown spec fields and keeps unknown pod template and PVC template fields', async () => {
    const body = mergePatch(validCloneSet('pruning'), {
      spec: {
        notAField: true,
        template: {
          spec: {
            terminationGracePeriodSeconds: 5,
            containers: [{ name: 'nginx', image: 'nginx:alpine', ports: [{ containerPort: 80 }] }],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    }) as JsonObject;
    await create(body);
    const spec = (await read('pruning'))['spec'] as JsonObject;
    expect(spec).not.toHaveProperty('notAField');
    expect(spec['template']).toMatchObject({
      spec: { terminationGracePeriodSeconds: 5, containers: [{ ports: [{ containerPort: 80 }] }] },
    });
    expect(spec['volumeClaimTemplates']).toEqual([
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ]);
  });

  it('keeps the selector immutable while other spec fields change', async () => {
    await create(validCloneSet('immutable'));
    const changeSelector = {
      spec: {
        selector: { matchLabels: { app: 'sample', tier: 'web' } },
        template: { metadata: { labels: { app: 'sample', tier: 'web' } } },
      },
    };
    const rejection = await rejectionOf(() =>
      api.patchNamespacedCustomObject({ ...target(), name: 'immutable', body: changeSelector }, mergePatchHeader),
    );
    expect(rejection.code).toBe(422);
    expect(rejection.message).toContain('spec.selector: field is immutable');
    expect(rejection.fields).toContain('spec.selector');

    const allowed = {
      spec: {
        replicas: 5,
        minReadySeconds: 10,
        template: { metadata: { labels: { app: 'sample', tier: 'web' } } },
        updateStrategy: { partition: '50%' },
      },
    };
    const updated = (await api.patchNamespacedCustomObject(
      { ...target(), name: 'immutable', body: allowed },
      mergePatchHeader,
    )) as JsonObject;
    expect(updated['spec']).toMatchObject({ replicas: 5, selector: { matchLabels: { app: 'sample' } } });
  });

  it('scales through the scale subresource and reports the selector from status', async () => {
    await create(validCloneSet('scalable'));
    await api.patchNamespacedCustomObjectStatus(
      {
        ...target(),
        name: 'scalable',
        body: {
          status: {
            replicas: 3,
            readyReplicas: 3,
            availableReplicas: 3,
            updatedReplicas: 3,
            updatedReadyReplicas: 3,
            labelSelector: 'app=sample',
          },
        },
      },
      mergePatchHeader,
    );
    const scale = (await api.getNamespacedCustomObjectScale({ ...target(), name: 'scalable' })) as JsonObject;
    expect(scale).toMatchObject({
      kind: 'Scale',
      spec: { replicas: 3 },
      status: { replicas: 3, selector: 'app=sample' },
    });

    // `kubectl scale --replicas=7` sends a merge patch to the scale subresource.
    await api.patchNamespacedCustomObjectScale(
      { ...target(), name: 'scalable', body: { spec: { replicas: 7 } } },
      mergePatchHeader,
    );
    expect(((await read('scalable'))['spec'] as JsonObject)['replicas']).toBe(7);

    // A PUT of the Scale object (what the HPA does) works as well.
    const current = (await api.getNamespacedCustomObjectScale({ ...target(), name: 'scalable' })) as JsonObject;
    await api.replaceNamespacedCustomObjectScale({
      ...target(),
      name: 'scalable',
      body: mergePatch(current, { spec: { replicas: 2 } }),
    });
    await waitFor(async () => ((await read('scalable'))['spec'] as JsonObject)['replicas'] === 2, {
      description: 'replicas 2 after the Scale PUT',
    });
  });

  it('refuses an InPlaceOnly update that adds, removes, renames or reorders containers, and accepts an image change', async () => {
    const containers = (...names: string[]): JsonObject => ({
      spec: { template: { spec: { containers: names.map((name) => ({ name, image: 'nginx:1.27' })) } } },
    });
    const inPlaceOnly = mergePatch(validCloneSet('in-place-only'), {
      spec: { updateStrategy: { type: 'InPlaceOnly' } },
    });
    await create(mergePatch(inPlaceOnly, containers('a', 'b')) as JsonObject);
    for (const changed of [
      containers('a'),
      containers('a', 'b', 'c'),
      containers('a', 'renamed'),
      containers('b', 'a'),
    ]) {
      const rejection = await rejectionOf(() =>
        api.patchNamespacedCustomObject({ ...target(), name: 'in-place-only', body: changed }, mergePatchHeader),
      );
      expect(rejection.code).toBe(422);
      expect(rejection.message).toContain(
        'spec.template.spec.containers: only allowed to update images in spec for InPlaceOnly',
      );
      expect(rejection.fields).toContain('spec.template.spec.containers');
    }
    const images = {
      spec: { template: { spec: { containers: ['a', 'b'].map((name) => ({ name, image: 'nginx:1.28' })) } } },
    };
    await expect(
      api.patchNamespacedCustomObject({ ...target(), name: 'in-place-only', body: images }, mergePatchHeader),
    ).resolves.toBeDefined();
  });

  it('checks maxUnavailable and maxSurge when the scale subresource raises replicas from 0', async () => {
    const stopped = mergePatch(validCloneSet('scaled-from-zero'), {
      spec: { replicas: 0, updateStrategy: { maxUnavailable: 0, maxSurge: 0 } },
    }) as JsonObject;
    await create(stopped);
    const rejection = await rejectionOf(() =>
      api.patchNamespacedCustomObjectScale(
        { ...target(), name: 'scaled-from-zero', body: { spec: { replicas: 3 } } },
        mergePatchHeader,
      ),
    );
    expect(rejection.code).toBe(422);
    expect(rejection.message).toContain('maxUnavailable and maxSurge should not both be less than 1');
    expect(((await read('scaled-from-zero'))['spec'] as JsonObject)['replicas']).toBe(0);
  });

  it('ignores status on create and on spec updates (status subresource)', async () => {
    const body = mergePatch(validCloneSet('status-ignored'), {
      status: { replicas: 9, readyReplicas: 9, availableReplicas: 9, updatedReplicas: 9, updatedReadyReplicas: 9 },
    }) as JsonObject;
    const created = await create(body);
    expect(created).not.toHaveProperty('status');
  });
});
