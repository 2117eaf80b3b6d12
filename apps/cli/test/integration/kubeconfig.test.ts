/**
 * kubectl's kubeconfig rules end to end: KUBECONFIG instead of --kubeconfig, --context over the
 * current context, the context's namespace when -n is not given; and the bundle `npm run build`
 * makes, which the installed executables run.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { temporaryBundles } from '@kruise-ts/bundle';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { freeLoopbackPort } from '@kruise-ts/local-cluster';
import { applyCrdFiles, createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { resolveKind } from '../../src/resources/kinds.ts';
import { workloadResource } from '../../src/resources/resource-types.ts';
import { createCloneSet, CRD_FILES, kruiseTs } from '../support/run-cli.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const cloneSet = workloadResource(resolveKind('cloneset') ?? (undefined as never));

/** A kubeconfig whose current context points nowhere and whose `test` context is the test cluster, in `namespace`. */
async function twoContexts(namespace: string): Promise<string> {
  const cluster = kubeConfig.getCurrentCluster();
  const user = kubeConfig.getCurrentUser();
  if (cluster === null || user === null) {
    throw new Error('the test kubeconfig has no current cluster or user');
  }
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [
      cluster,
      { name: 'nowhere', server: `https://127.0.0.1:${String(await freeLoopbackPort())}`, skipTLSVerify: true },
    ],
    users: [user],
    contexts: [
      { name: 'broken', cluster: 'nowhere', user: user.name },
      { name: 'test', cluster: cluster.name, user: user.name, namespace },
    ],
    currentContext: 'broken',
  });
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'kruise-ts-cli-')), 'config');
  await writeFile(file, config.exportConfig());
  return file;
}

describe('kubeconfig rules', () => {
  it("reads KUBECONFIG, switches with --context and defaults to the context's namespace", async () => {
    await applyCrdFiles(kubeConfig, CRD_FILES);
    await using ns = await createTestNamespace(kubeConfig, 'cli-kubeconfig');
    await createCloneSet(client, ns.name, 'web');
    const env = { ...process.env, KUBECONFIG: await twoContexts(ns.name) };

    const current = await kruiseTs(['rollout', 'pause', 'clone/web'], { env });
    expect([current.code, current.stderr]).toEqual([
      1,
      expect.stringMatching(
        /^The connection to the server 127\.0\.0\.1:\d+ was refused - did you specify the right host or port\?\n$/,
      ),
    ]);
    expect(await kruiseTs(['--context', 'test', 'rollout', 'pause', 'clone/web'], { env })).toEqual({
      code: 0,
      stdout: 'cloneset.apps.kruise.io/web paused\n',
      stderr: '',
    });
    expect((await client.get(cloneSet, { namespace: ns.name, name: 'web' })).spec.updateStrategy?.paused).toBe(true);

    const otherNamespace = await kruiseTs(['--context', 'test', '-n', 'default', 'rollout', 'resume', 'clone/web'], {
      env,
    });
    expect([otherNamespace.code, otherNamespace.stderr]).toEqual([
      1,
      'Error from server (NotFound): clonesets.apps.kruise.io "web" not found\n',
    ]);
    const unknownContext = await kruiseTs(['--context', 'nope', 'rollout', 'resume', 'clone/web'], { env });
    expect([unknownContext.code, unknownContext.stderr]).toEqual([
      1,
      'error: context "nope" does not exist in the kubeconfig\n',
    ]);
  });

  it('runs the same from the bundle', async () => {
    await applyCrdFiles(kubeConfig, CRD_FILES);
    await using ns = await createTestNamespace(kubeConfig, 'cli-bundle');
    await createCloneSet(client, ns.name, 'web');
    const module = (await temporaryBundles())['kruise-ts-cli'];
    const env = { ...process.env, KUBECONFIG: await twoContexts(ns.name) };
    expect(
      await kruiseTs(['rollout', 'pause', '--context=test', 'clone/web'], {
        env,
        ...(module === undefined ? {} : { module }),
      }),
    ).toEqual({
      code: 0,
      stdout: 'cloneset.apps.kruise.io/web paused\n',
      stderr: '',
    });
    expect((await client.get(cloneSet, { namespace: ns.name, name: 'web' })).spec.updateStrategy?.paused).toBe(true);
  }, 180_000);
});
