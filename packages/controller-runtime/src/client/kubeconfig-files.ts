/**
 * The kubeconfig as kubectl reads it, for the controllers and the CLI alike: which files, merged how,
 * and the context a process talks to.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

import { readKubeConfigFile } from './kubeconfig-file.ts';
import type { ClusterEntry, ContextEntry, KubeConfigEntries, UserEntry } from './kubeconfig-file.ts';

/**
 * kubectl's choice of files: `--kubeconfig` alone; else every file of KUBECONFIG that exists (kubectl
 * skips missing ones); else ~/.kube/config when it exists.
 */
export function kubeConfigFiles(flag: string | undefined, env: NodeJS.ProcessEnv): readonly string[] {
  if (flag !== undefined) {
    return [flag];
  }
  const listed = (env['KUBECONFIG'] ?? '').split(path.delimiter).filter((file) => file !== '');
  if (listed.length > 0) {
    return listed.filter((file) => existsSync(file));
  }
  const home = path.join(env['HOME'] ?? homedir(), '.kube', 'config');
  return existsSync(home) ? [home] : [];
}

/** The files merged as kubectl merges them: the first file to name an entry, or a current context, wins. */
export function readKubeConfigFiles(files: readonly string[]): KubeConfigEntries {
  const entries = files.map(readKubeConfigFile);
  return {
    currentContext: entries.find((entry) => entry.currentContext !== undefined)?.currentContext,
    clusters: firstWins(entries.map((entry) => entry.clusters)),
    users: firstWins(entries.map((entry) => entry.users)),
    contexts: firstWins(entries.map((entry) => entry.contexts)),
  };
}

function firstWins<T>(maps: readonly ReadonlyMap<string, T>[]): ReadonlyMap<string, T> {
  const merged = new Map<string, T>();
  for (const map of maps) {
    for (const [name, value] of map) {
      if (!merged.has(name)) {
        merged.set(name, value);
      }
    }
  }
  return merged;
}

/** The context a command talks to, resolved to its cluster and user. */
export interface SelectedContext {
  readonly name: string;
  readonly cluster: ClusterEntry;
  readonly user: UserEntry;
  readonly context: ContextEntry;
}

/** The context named by `override` (kubectl's `--context`) when given, else the current one; an error says which name is missing. */
export function selectContext(config: KubeConfigEntries, override: string | undefined): SelectedContext {
  const name = override ?? config.currentContext;
  if (name === undefined) {
    throw new Error('the kubeconfig has no current context (kubectl config use-context NAME sets one)');
  }
  const context = config.contexts.get(name);
  if (context === undefined) {
    throw new Error(`context ${JSON.stringify(name)} does not exist in the kubeconfig`);
  }
  const cluster = config.clusters.get(context.cluster);
  if (cluster === undefined) {
    throw new Error(
      `context ${JSON.stringify(name)} names cluster ${JSON.stringify(context.cluster)}, which the kubeconfig does not define`,
    );
  }
  return {
    name,
    cluster,
    user: (context.user === undefined ? undefined : config.users.get(context.user)) ?? {},
    context,
  };
}

/** Whether the context needs what only @kubernetes/client-node implements (it is heavy: loaded only then). */
export function needsClientNode(selected: Pick<SelectedContext, 'cluster' | 'user'>): boolean {
  return (
    selected.user.exec != null || selected.user['auth-provider'] != null || selected.cluster['proxy-url'] !== undefined
  );
}
