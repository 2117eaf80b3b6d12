import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { KubeConfig } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { StaticKubeConfig } from '../client/kubeconfig-loader.ts';
import { managerFlagsSchema, parseFlags } from '../flags/manager-flags.ts';
import { leaderElectionNamespace, loadKubeConfig } from './manager-from-flags.ts';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'load-kubeconfig-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A kubeconfig file in the temp dir whose current context `name` has cluster `server` and the user given. */
function kubeconfig(
  file: string,
  input: { readonly name: string; readonly server: string; readonly user: Record<string, unknown> },
): string {
  const full = path.join(dir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(
    full,
    dump({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': input.name,
      clusters: [{ name: input.name, cluster: { server: input.server } }],
      users: [{ name: input.name, user: input.user }],
      contexts: [{ name: input.name, context: { cluster: input.name, user: input.name } }],
    }),
  );
  return full;
}

const exec = {
  exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'get-token', interactiveMode: 'Never' },
};

describe('loadKubeConfig', () => {
  interface Case {
    readonly name: string;
    /** The `--kubeconfig` flag and the environment, given the temp dir (HOME is an empty directory in it). */
    readonly input: (home: string) => { readonly file: string | undefined; readonly env: NodeJS.ProcessEnv };
    readonly type: typeof StaticKubeConfig | typeof KubeConfig;
    readonly server: string;
  }
  const cases: readonly Case[] = [
    {
      name: 'a token kubeconfig given as --kubeconfig: read here',
      input: (home) => ({
        file: kubeconfig('token', { name: 'a', server: 'https://a.example:6443', user: { token: 't' } }),
        env: { HOME: home },
      }),
      type: StaticKubeConfig,
      server: 'https://a.example:6443',
    },
    {
      name: 'a token kubeconfig in KUBECONFIG: read here',
      input: (home) => ({
        file: undefined,
        env: {
          HOME: home,
          KUBECONFIG: kubeconfig('token', { name: 'a', server: 'https://a.example:6443', user: { token: 't' } }),
        },
      }),
      type: StaticKubeConfig,
      server: 'https://a.example:6443',
    },
    {
      name: 'a client-certificate kubeconfig at HOME/.kube/config: read here',
      input: (home) => {
        kubeconfig('home/.kube/config', {
          name: 'h',
          server: 'https://h.example',
          user: { 'client-certificate-data': 'Qw==', 'client-key-data': 'Sw==' },
        });
        return { file: undefined, env: { HOME: home } };
      },
      type: StaticKubeConfig,
      server: 'https://h.example',
    },
    {
      name: 'an exec-plugin kubeconfig given as --kubeconfig: client-node',
      input: (home) => ({
        file: kubeconfig('exec', { name: 'e', server: 'https://e.example', user: exec }),
        env: { HOME: home },
      }),
      type: KubeConfig,
      server: 'https://e.example',
    },
    {
      name: 'an exec-plugin kubeconfig in KUBECONFIG: client-node',
      input: (home) => ({
        file: undefined,
        env: { HOME: home, KUBECONFIG: kubeconfig('exec', { name: 'e', server: 'https://e.example', user: exec }) },
      }),
      type: KubeConfig,
      server: 'https://e.example',
    },
    {
      name: 'KUBECONFIG with two files: client-node, the current context of the first',
      input: (home) => {
        const first = kubeconfig('first', { name: 'one', server: 'https://one.example', user: { token: '1' } });
        const second = kubeconfig('second', { name: 'two', server: 'https://two.example', user: { token: '2' } });
        // Also when the process's own KUBECONFIG names other files: `env` is what counts.
        return { file: undefined, env: { HOME: home, KUBECONFIG: [first, second].join(path.delimiter) } };
      },
      type: KubeConfig,
      server: 'https://one.example',
    },
  ];

  it.each(cases)('$name', async ({ input, type, server }) => {
    const home = path.join(dir, 'home');
    mkdirSync(home, { recursive: true });
    const { file, env } = input(home);
    const kubeConfig = await loadKubeConfig(file, env);
    expect(kubeConfig).toBeInstanceOf(type);
    expect(kubeConfig.getCurrentCluster()?.server).toBe(server);
  });

  it('merges the files of KUBECONFIG as client-node does', async () => {
    const first = kubeconfig('first', { name: 'one', server: 'https://one.example', user: { token: '1' } });
    const second = kubeconfig('second', { name: 'two', server: 'https://two.example', user: { token: '2' } });
    const kubeConfig = await loadKubeConfig(undefined, {
      HOME: dir,
      KUBECONFIG: [first, '', second].join(path.delimiter),
    });
    expect(kubeConfig).toBeInstanceOf(KubeConfig);
    if (kubeConfig instanceof KubeConfig) {
      expect(kubeConfig.getContexts().map((context) => context.name)).toEqual(['one', 'two']);
      expect(kubeConfig.getCurrentContext()).toBe('one');
    }
  });

  it('takes the current context of a later file when the first names none (as kubectl)', async () => {
    const first = path.join(dir, 'no-context');
    writeFileSync(
      first,
      dump({
        clusters: [{ name: 'x', cluster: { server: 'https://x.example' } }],
        users: [],
        contexts: [{ name: 'x', context: { cluster: 'x' } }],
      }),
    );
    const second = kubeconfig('second', { name: 'two', server: 'https://two.example', user: { token: '2' } });
    const kubeConfig = await loadKubeConfig(undefined, { HOME: dir, KUBECONFIG: [first, second].join(path.delimiter) });
    expect(kubeConfig.getCurrentCluster()?.server).toBe('https://two.example');
  });

  it('names the file of a broken kubeconfig', async () => {
    const file = path.join(dir, 'broken');
    writeFileSync(file, dump({ 'current-context': 'missing', contexts: [] }));
    await expect(loadKubeConfig(file, { HOME: dir })).rejects.toThrow(
      `kubeconfig ${file}: context "missing" does not exist in the kubeconfig`,
    );
  });
});

describe('leaderElectionNamespace', () => {
  it('is the flag when given, else `default`: the runtime has no release namespace of its own', () => {
    expect(leaderElectionNamespace(parseFlags([], managerFlagsSchema))).toBe('default');
    expect(leaderElectionNamespace(parseFlags(['--leader-election-namespace=ops'], managerFlagsSchema))).toBe('ops');
  });
});
