/**
 * `rollout history` and `rollout undo` against a real API server, for a CloneSet and an Advanced
 * StatefulSet. No controller runs here: after each template change the test makes the revision as
 * the controllers do (the revision package's ensureUpdateRevision over the workload's template and
 * annotations), then reads back what the API server holds.
 */
import { describe, expect, inject, it } from 'vitest';

import { isConflict, resourceClient } from '@kruise-ts/controller-runtime';
import type { Client } from '@kruise-ts/controller-runtime';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { applyCrdFiles, createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { controllerRevisionResource, ensureUpdateRevision, templateFromRevision } from '@kruise-ts/revision';

import { rollbackPatch } from '../../src/history/template-patch.ts';
import { resolveKind } from '../../src/resources/kinds.ts';
import type { Kind } from '../../src/resources/kinds.ts';
import { workloadResource } from '../../src/resources/resource-types.ts';
import type { WorkloadObject } from '../../src/resources/workload-object.ts';
import { createAdvancedStatefulSet, createCloneSet, CRD_FILES, kruiseTs } from '../support/run-cli.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const kubeconfigPath = inject('kubeconfigPath');

function kind(type: string): Kind {
  const found = resolveKind(type);
  if (found === undefined) {
    throw new Error(`no kind ${type}`);
  }
  return found;
}

interface Case {
  readonly kind: Kind;
  /** `clone/web`. */
  readonly object: string;
  readonly create: (client: Client, namespace: string, name: string) => Promise<unknown>;
  /** The table `rollout history` prints after two image changes. */
  readonly table: readonly string[];
}

const CASES: readonly Case[] = [
  {
    kind: kind('cloneset'),
    object: 'clone/web',
    create: createCloneSet,
    table: [
      'REVISION  CHANGE-CAUSE                                    IMAGES',
      '1         <none>                                          nginx:1.25,busybox:1.36',
      '2         kruise-ts set image clone/web nginx=nginx:1.26  nginx:1.26,busybox:1.36',
      '3         kruise-ts set image clone/web nginx=nginx:1.27  nginx:1.27,busybox:1.36',
    ],
  },
  {
    kind: kind('asts'),
    object: 'asts/db',
    create: createAdvancedStatefulSet,
    table: [
      'REVISION  CHANGE-CAUSE                                  IMAGES',
      '1         <none>                                        nginx:1.25,busybox:1.36',
      '2         kruise-ts set image asts/db nginx=nginx:1.26  nginx:1.26,busybox:1.36',
      '3         kruise-ts set image asts/db nginx=nginx:1.27  nginx:1.27,busybox:1.36',
    ],
  },
];

describe.each(CASES)('rollout history and undo of $object', ({ kind: workloadKind, object, create, table }) => {
  it('lists the revisions, shows one, and restores the previous one and a named one', async () => {
    await applyCrdFiles(kubeConfig, CRD_FILES);
    await using ns = await createTestNamespace(kubeConfig, 'cli-history');
    const name = object.split('/')[1] ?? '';
    const resource = workloadResource(workloadKind);
    const key = { namespace: ns.name, name };
    const displayName = `${workloadKind.singular}.${workloadKind.group}/${name}`;
    const cli = (...args: string[]) => kruiseTs(['--kubeconfig', kubeconfigPath, '-n', ns.name, ...args]);
    const read = (): Promise<WorkloadObject> => client.get(resource, key);
    const images = async (): Promise<(string | undefined)[]> =>
      (await read()).spec.template.spec.containers.map((container) => container.image);
    const revisions = async () =>
      (await client.listAll(controllerRevisionResource, { namespace: ns.name, labelSelector: `app=${name}` })).items;

    /** The controller's step after a template change: the update revision, made or taken back. */
    const reconcile = async (): Promise<void> => {
      const workload = await read();
      const { metadata } = workload;
      await ensureUpdateRevision({
        client: resourceClient(client, controllerRevisionResource),
        owner: {
          name,
          namespace: ns.name,
          uid: metadata.uid,
          apiVersion: `${workloadKind.group}/${workloadKind.version}`,
          kind: workloadKind.kind,
        },
        template: workload.spec.template,
        ownerAnnotations: metadata.annotations,
        revisions: await revisions(),
        collisionCount: 0,
      });
    };

    await create(client, ns.name, name);
    await reconcile();
    for (const version of ['1.26', '1.27']) {
      const cause = `kruise-ts set image ${object} nginx=nginx:${version}`;
      await client.patch(resource, key, {
        type: 'merge',
        body: { metadata: { annotations: { 'kubernetes.io/change-cause': cause } } },
      });
      expect((await cli('set', 'image', object, `nginx=nginx:${version}`)).code).toBe(0);
      await reconcile();
    }

    expect(await cli('rollout', 'history', object)).toEqual({
      code: 0,
      stdout: [displayName, ...table, '', ''].join('\n'),
      stderr: '',
    });
    const second = await cli('rollout', 'history', object, '--revision', '2');
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      new RegExp(`^${displayName} with revision #2\nPod Template:\n  Labels: +app=${name}\n`),
    );
    expect(second.stdout).toMatch(
      /\n {3}nginx:\n {4}Image: +nginx:1\.26\n[^]*\n {3}sidecar:\n {4}Image: +busybox:1\.36\n/,
    );
    expect(await cli('rollout', 'history', object, '--revision', '7')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: unable to find the specified revision\n',
    });

    // Back to the previous revision (2); the controller takes revision 2 back as 4, no new revision.
    expect(await cli('rollout', 'undo', object)).toEqual({
      code: 0,
      stdout: `${displayName} rolled back\n`,
      stderr: '',
    });
    expect(await images()).toEqual(['nginx:1.26', 'busybox:1.36']);
    await reconcile();
    expect((await revisions()).map((revision) => revision.revision).sort((a, b) => a - b)).toEqual([1, 3, 4]);

    expect(await cli('rollout', 'undo', object, '--to-revision', '1')).toEqual({
      code: 0,
      stdout: `${displayName} rolled back\n`,
      stderr: '',
    });
    expect(await images()).toEqual(['nginx:1.25', 'busybox:1.36']);
    await reconcile();
    const history = await cli('rollout', 'history', object);
    expect(
      history.stdout
        .split('\n')
        .slice(2, 5)
        .map((line) => line.replace(/ {2,}/g, ' | ')),
    ).toEqual([
      `3 | kruise-ts set image ${object} nginx=nginx:1.27 | nginx:1.27,busybox:1.36`,
      `4 | kruise-ts set image ${object} nginx=nginx:1.26 | nginx:1.26,busybox:1.36`,
      '5 | <none> | nginx:1.25,busybox:1.36',
    ]);

    // Refusals and a rollback to the template it already has write nothing.
    const untouched = (await read()).metadata.resourceVersion;
    expect(await cli('rollout', 'undo', object, '--to-revision', '99')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: unable to find specified revision 99 in history\n',
    });
    expect(await cli('rollout', 'undo', object, '--to-revision=5')).toEqual({
      code: 0,
      stdout: `${displayName} skipped rollback (current template already matches revision 5)\n`,
      stderr: '',
    });
    expect((await read()).metadata.resourceVersion).toBe(untouched);
  });

  it('refuses a paused workload, and its patch is refused by the API server once the workload has changed', async () => {
    await applyCrdFiles(kubeConfig, CRD_FILES);
    await using ns = await createTestNamespace(kubeConfig, 'cli-undo-refused');
    const name = object.split('/')[1] ?? '';
    const resource = workloadResource(workloadKind);
    const key = { namespace: ns.name, name };
    const cli = (...args: string[]) => kruiseTs(['--kubeconfig', kubeconfigPath, '-n', ns.name, ...args]);
    await create(client, ns.name, name);
    const noHistory = await cli('rollout', 'undo', object);
    expect(noHistory).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^error: no rollout history found for /) as unknown,
    });

    expect((await cli('rollout', 'pause', object)).code).toBe(0);
    const workload = await client.get(resource, key);
    const owner = {
      name,
      namespace: ns.name,
      uid: workload.metadata.uid,
      apiVersion: `${workloadKind.group}/${workloadKind.version}`,
      kind: workloadKind.kind,
    };
    const store = resourceClient(client, controllerRevisionResource);
    const first = await ensureUpdateRevision({
      client: store,
      owner,
      template: workload.spec.template,
      revisions: [],
      collisionCount: 0,
    });
    expect((await cli('set', 'image', object, 'nginx=nginx:1.26')).code).toBe(0);
    const changed = await client.get(resource, key);
    await ensureUpdateRevision({
      client: store,
      owner,
      template: changed.spec.template,
      revisions: first.revisions,
      collisionCount: 0,
    });

    expect(await cli('rollout', 'undo', object)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: you cannot rollback a paused ${workloadKind.singular}; resume it first with 'kruise-ts rollout resume ${object}' and try again\n`,
    });
    expect((await client.get(resource, key)).metadata.resourceVersion).toBe(changed.metadata.resourceVersion);

    // The precondition undo relies on: its patch, made at an older resourceVersion, is a Conflict.
    const stale = rollbackPatch({
      resourceVersion: workload.metadata.resourceVersion,
      current: changed.spec.template,
      target: templateFromRevision(first.updateRevision),
    });
    await expect(client.patch(resource, key, { type: 'merge', body: stale })).rejects.toSatisfy(isConflict);
    expect((await client.get(resource, key)).spec.template.spec.containers[0]?.image).toBe('nginx:1.26');
  });
});
