import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { PROCESS_ENTRIES, temporaryBundles, THREAD_ENTRIES, TOOL_ENTRIES } from './bundle-apps.ts';

describe('temporaryBundles', () => {
  it('builds a module for every process entry, tool (and the extra ones) once per process, outside the repository', async () => {
    const files = await temporaryBundles({ extra: 'tools/bundle/src/index.ts' });
    expect(Object.keys(files).sort()).toEqual(
      [...Object.keys(PROCESS_ENTRIES), ...Object.keys(THREAD_ENTRIES), ...Object.keys(TOOL_ENTRIES), 'extra'].sort(),
    );
    for (const file of Object.values(files)) {
      expect(existsSync(file), file).toBe(true);
    }
    expect(path.dirname(files['cloneset'] ?? '')).not.toContain('/dist');
    expect(await temporaryBundles({ extra: 'tools/bundle/src/index.ts' })).toBe(files);
  }, 60_000);

  // The tool is built with the workspace's modules taken as free of side effects: what it needs must still be there.
  it('builds a command-line tool that parses, connects and reports on its own', async () => {
    const cli = (await temporaryBundles())['kruise-ts-cli'] ?? '';
    const usage = spawnSync(process.execPath, [cli, 'rollout', 'pause', 'sts/db'], { encoding: 'utf8' });
    expect([usage.status, usage.stderr]).toEqual([
      2,
      expect.stringContaining('hint: for an Advanced StatefulSet write asts/db'),
    ]);
    const kubeconfig = path.join(mkdtempSync(path.join(tmpdir(), 'kruise-ts-bundle-')), 'config');
    writeFileSync(
      kubeconfig,
      `current-context: c\nclusters: [{ name: c, cluster: { server: "https://127.0.0.1:${String(await closedPort())}" } }]\ncontexts: [{ name: c, context: { cluster: c } }]\n`,
    );
    const unreachable = spawnSync(
      process.execPath,
      [cli, '--kubeconfig', kubeconfig, 'rollout', 'pause', 'clone/web'],
      { encoding: 'utf8' },
    );
    expect([unreachable.status, unreachable.stderr]).toEqual([
      1,
      expect.stringMatching(
        /^The connection to the server 127\.0\.0\.1:\d+ was refused - did you specify the right host or port\?\n$/,
      ),
    ]);
  }, 60_000);

  it('writes the kubectl plugin executable, which names itself as kubectl shows it', async () => {
    const launcher = path.join(path.dirname((await temporaryBundles())['kruise-ts-cli'] ?? ''), 'kubectl-kruise_ts');
    const help = spawnSync(launcher, ['scale', '--help'], { encoding: 'utf8' });
    expect([help.status, help.stdout]).toEqual([
      0,
      expect.stringContaining('Usage: kubectl kruise-ts scale [options] <object...>'),
    ]);
  }, 60_000);
});

/** A port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
