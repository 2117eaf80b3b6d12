/**
 * The CLI against a real Advanced StatefulSet (apps.kruise.io/v1beta1): the same verbs, its own
 * fields (rollingUpdate.paused, reserveOrdinals), and the native StatefulSet's spelling refused.
 */
import { describe, expect, inject, it } from 'vitest';

import { testClient } from '@kruise-ts/controller-runtime/testing';
import { applyCrdFiles, createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { resolveKind } from '../../src/resources/kinds.ts';
import { workloadResource } from '../../src/resources/resource-types.ts';
import type { WorkloadObject } from '../../src/resources/workload-object.ts';
import { createAdvancedStatefulSet, createPod, CRD_FILES, kruiseTs } from '../support/run-cli.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const kubeconfigPath = inject('kubeconfigPath');
const statefulSet = workloadResource(resolveKind('asts') ?? (undefined as never));

describe('kruise-ts on an Advanced StatefulSet', () => {
  it('pauses, resumes, restarts, sets images and reserves the ordinals of deleted pods', async () => {
    await applyCrdFiles(kubeConfig, CRD_FILES);
    await using ns = await createTestNamespace(kubeConfig, 'cli-asts');
    const cli = (...args: string[]) => kruiseTs(['--kubeconfig', kubeconfigPath, '--namespace', ns.name, ...args]);
    const read = (): Promise<WorkloadObject> => client.get(statefulSet, { namespace: ns.name, name: 'db' });
    const db = await createAdvancedStatefulSet(client, ns.name, 'db');

    expect(await cli('rollout', 'pause', 'asts/db')).toEqual({
      code: 0,
      stdout: 'statefulset.apps.kruise.io/db paused\n',
      stderr: '',
    });
    expect((await read()).spec.updateStrategy?.rollingUpdate?.paused).toBe(true);
    expect(await cli('rollout', 'resume', 'statefulset.apps.kruise.io/db')).toEqual({
      code: 0,
      stdout: 'statefulset.apps.kruise.io/db resumed\n',
      stderr: '',
    });
    expect((await read()).spec.updateStrategy?.rollingUpdate?.paused).toBe(false);
    expect(await cli('rollout', 'resume', 'asts/db')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: statefulsets.apps.kruise.io "db" is not paused\n',
    });

    expect((await cli('rollout', 'restart', 'asts', 'db')).stdout).toBe('statefulset.apps.kruise.io/db restarted\n');
    expect((await read()).spec.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']).toMatch(/Z$/);

    expect((await cli('set', 'image', 'asts/db', '*=busybox:1.37')).stdout).toBe(
      'statefulset.apps.kruise.io/db image updated\n',
    );
    expect((await read()).spec.template.spec.containers.map((container) => container.image)).toEqual([
      'busybox:1.37',
      'busybox:1.37',
    ]);

    for (const ordinal of [0, 1, 2]) {
      await createPod(client, { namespace: ns.name, name: `db-${String(ordinal)}`, owner: db });
    }
    expect(await cli('scale', 'asts/db', '--replicas', '2', '--delete', 'db-1')).toEqual({
      code: 0,
      stdout: 'statefulset.apps.kruise.io/db scaled\n',
      stderr: '',
    });
    const scaled = await read();
    expect([scaled.spec.replicas, scaled.spec.reserveOrdinals]).toEqual([2, [1]]);
  });

  it('refuses the native spelling and pods that are not its own, writing nothing', async () => {
    await applyCrdFiles(kubeConfig, CRD_FILES);
    await using ns = await createTestNamespace(kubeConfig, 'cli-asts-bad');
    const cli = (...args: string[]) => kruiseTs(['--kubeconfig', kubeconfigPath, '-n', ns.name, ...args]);
    await createAdvancedStatefulSet(client, ns.name, 'db');
    await createPod(client, { namespace: ns.name, name: 'db-9' });
    const untouched = (await client.get(statefulSet, { namespace: ns.name, name: 'db' })).metadata.resourceVersion;

    expect(await cli('rollout', 'pause', 'statefulset/db')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: statefulset/db is a native StatefulSet (apps/v1), which rollout pause does not work on\nhint: for an Advanced StatefulSet write asts/db or statefulset.apps.kruise.io/db\n',
    });
    expect(await cli('scale', 'asts/db', '--replicas', '2', '--delete', 'db-9')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: pod "db-9" is not controlled by statefulset.apps.kruise.io/db\n',
    });
    expect((await client.get(statefulSet, { namespace: ns.name, name: 'db' })).metadata.resourceVersion).toBe(
      untouched,
    );
  });
});
