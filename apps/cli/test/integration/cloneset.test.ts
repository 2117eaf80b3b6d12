/**
 * The CLI against real CloneSets on the control plane: each verb, then what the API server holds.
 * No controller runs: these verbs only write the CloneSet, and the pods are made by the test.
 */
import { describe, expect, inject, it } from 'vitest';

import { testClient } from '@kruise-ts/controller-runtime/testing';
import { applyCrdFiles, createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { resolveKind } from '../../src/resources/kinds.ts';
import { workloadResource } from '../../src/resources/resource-types.ts';
import type { WorkloadObject } from '../../src/resources/workload-object.ts';
import { createCloneSet, createPod, CRD_FILES, kruiseTs } from '../support/run-cli.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const kubeconfigPath = inject('kubeconfigPath');
const cloneSet = workloadResource(resolveKind('cloneset') ?? (undefined as never));

describe('kruise-ts on a CloneSet', () => {
  it('pauses, resumes, restarts, sets images and scales in selected pods', async () => {
    await applyCrdFiles(kubeConfig, CRD_FILES);
    await using ns = await createTestNamespace(kubeConfig, 'cli-cloneset');
    const cli = (...args: string[]) => kruiseTs(['--kubeconfig', kubeconfigPath, '-n', ns.name, ...args]);
    const read = (): Promise<WorkloadObject> => client.get(cloneSet, { namespace: ns.name, name: 'web' });
    const web = await createCloneSet(client, ns.name, 'web');

    expect(await cli('rollout', 'pause', 'clone/web')).toEqual({
      code: 0,
      stdout: 'cloneset.apps.kruise.io/web paused\n',
      stderr: '',
    });
    expect((await read()).spec.updateStrategy?.paused).toBe(true);
    expect(await cli('rollout', 'pause', 'cloneset/web')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: clonesets.apps.kruise.io "web" is already paused\n',
    });
    expect(await cli('rollout', 'restart', 'clone/web')).toMatchObject({
      code: 1,
      stderr: "error: can't restart paused cloneset web (run rollout resume first)\n",
    });
    expect(await cli('rollout', 'resume', 'cloneset.apps.kruise.io/web')).toEqual({
      code: 0,
      stdout: 'cloneset.apps.kruise.io/web resumed\n',
      stderr: '',
    });
    expect((await read()).spec.updateStrategy?.paused).toBe(false);

    const before = Date.now();
    expect(await cli('rollout', 'restart', 'clonesets/web')).toEqual({
      code: 0,
      stdout: 'cloneset.apps.kruise.io/web restarted\n',
      stderr: '',
    });
    const restartedAt = (await read()).spec.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt'] ?? '';
    expect(restartedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(restartedAt)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);

    expect(await cli('set', 'image', 'clone/web', 'nginx=nginx:1.27', 'sidecar=busybox:1.37')).toEqual({
      code: 0,
      stdout: 'cloneset.apps.kruise.io/web image updated\n',
      stderr: '',
    });
    expect((await read()).spec.template.spec.containers.map((container) => container.image)).toEqual([
      'nginx:1.27',
      'busybox:1.37',
    ]);

    await createPod(client, { namespace: ns.name, name: 'web-a', owner: web });
    await createPod(client, { namespace: ns.name, name: 'web-b', owner: web });
    expect(await cli('scale', 'clone/web', '--replicas', '1', '--delete', 'web-a')).toEqual({
      code: 0,
      stdout: 'cloneset.apps.kruise.io/web scaled\n',
      stderr: '',
    });
    expect(await cli('scale', 'clone/web', '--replicas=0', '--delete=web-b,web-a')).toMatchObject({ code: 0 });
    const scaled = await read();
    expect([scaled.spec.replicas, scaled.spec.scaleStrategy?.podsToDelete]).toEqual([0, ['web-a', 'web-b']]);
  });

  it('refuses bad input with kubectl-style messages and writes nothing', async () => {
    await applyCrdFiles(kubeConfig, CRD_FILES);
    await using ns = await createTestNamespace(kubeConfig, 'cli-cloneset-bad');
    const cli = (...args: string[]) => kruiseTs(['--kubeconfig', kubeconfigPath, '-n', ns.name, ...args]);
    const web = await createCloneSet(client, ns.name, 'web');
    const other = await createCloneSet(client, ns.name, 'other');
    await createPod(client, { namespace: ns.name, name: 'web-a', owner: web });
    await createPod(client, { namespace: ns.name, name: 'other-a', owner: other });
    await createPod(client, { namespace: ns.name, name: 'stray' });
    const version = async (): Promise<string> =>
      (await client.get(cloneSet, { namespace: ns.name, name: 'web' })).metadata.resourceVersion;
    const untouched = await version();

    const unknownContainer = await cli('set', 'image', 'clone/web', 'nginx=nginx:1.27', 'app=app:2');
    expect(unknownContainer).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: unable to find container named "app" in cloneset.apps.kruise.io/web; its containers are nginx, sidecar\n',
    });

    const notOwned = await cli('scale', 'clone/web', '--replicas', '0', '--delete', 'web-a,other-a,stray,gone');
    expect(notOwned.code).toBe(1);
    expect(notOwned.stderr.split('\n')).toEqual([
      'error: pod "other-a" is not controlled by cloneset.apps.kruise.io/web',
      'error: pod "stray" is not controlled by cloneset.apps.kruise.io/web',
      `error: pod "gone" not found in namespace "${ns.name}"`,
      '',
    ]);

    const unknownType = await cli('rollout', 'pause', 'widget/web');
    expect([unknownType.code, unknownType.stderr]).toEqual([
      2,
      expect.stringContaining('error: the resource type "widget" is not one kruise-ts knows\nhint: known types:'),
    ]);
    const unknownFlag = await cli('scale', 'clone/web', '--replicas', '1', '--force');
    expect([unknownFlag.code, unknownFlag.stderr]).toEqual([
      2,
      "error: unknown option '--force'\nSee 'kruise-ts scale --help' for usage.\n",
    ]);
    const missing = await cli('rollout', 'pause', 'clone/nothing');
    expect([missing.code, missing.stderr]).toEqual([
      1,
      'Error from server (NotFound): clonesets.apps.kruise.io "nothing" not found\n',
    ]);

    expect(await version()).toBe(untouched);
  });
});
