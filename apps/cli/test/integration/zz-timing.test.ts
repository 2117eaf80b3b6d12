import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, it, inject } from 'vitest';
import { temporaryBundles } from '@kruise-ts/bundle';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { applyCrdFiles, createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { createCloneSet, CRD_FILES } from '../support/run-cli.ts';

describe('timing (temporary)', () => {
  it('measures', async () => {
    const kubeConfig = testKubeConfig();
    await applyCrdFiles(kubeConfig, CRD_FILES);
    await using ns = await createTestNamespace(kubeConfig, 'cli-timing');
    await createCloneSet(testClient(kubeConfig), ns.name, 'web');
    const cli = (await temporaryBundles())['kruise-ts-cli'] ?? '';
    const launcher = path.join(path.dirname(cli), 'kubectl-kruise_ts');
    const args = (i: number) => ['--kubeconfig', inject('kubeconfigPath'), '-n', ns.name, 'rollout', i % 2 === 0 ? 'pause' : 'resume', 'clone/web'];
    const time = (command: string, argv: string[]) => { const t = performance.now(); execFileSync(command, argv); return Math.round(performance.now() - t); };
    const bare = Array.from({ length: 8 }, () => time(process.execPath, ['-e', '0']));
    const bundle = Array.from({ length: 8 }, (_, i) => time(process.execPath, [cli, ...args(i)]));
    const plugin = Array.from({ length: 8 }, (_, i) => time(launcher, args(i)));
    console.log(`TIMING bare node ${bare.join(' ')} | bundle ${bundle.join(' ')} | kubectl-kruise_ts ${plugin.join(' ')}`);
  }, 120_000);
});
