/**
 * One kubeconfig file as kubectl reads it: its clusters, users and contexts by name, with file paths
 * made absolute against the file's own folder (kubectl resolves them per file, and merged entries
 * come from different files).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { load as parseYaml } from 'js-yaml';
import { z } from 'zod';

const clusterSchema = z.looseObject({
  server: z.string().min(1),
  'certificate-authority': z.string().exactOptional(),
  'certificate-authority-data': z.string().exactOptional(),
  'insecure-skip-tls-verify': z.boolean().exactOptional(),
  'tls-server-name': z.string().exactOptional(),
  'proxy-url': z.string().exactOptional(),
});

const userSchema = z.looseObject({
  token: z.string().exactOptional(),
  tokenFile: z.string().exactOptional(),
  'client-certificate': z.string().exactOptional(),
  'client-certificate-data': z.string().exactOptional(),
  'client-key': z.string().exactOptional(),
  'client-key-data': z.string().exactOptional(),
  username: z.string().exactOptional(),
  password: z.string().exactOptional(),
  exec: z.unknown().exactOptional(),
  'auth-provider': z.unknown().exactOptional(),
});

const contextSchema = z.looseObject({
  cluster: z.string(),
  user: z.string().exactOptional(),
  namespace: z.string().exactOptional(),
});

const kubeConfigFileSchema = z.looseObject({
  'current-context': z.string().exactOptional(),
  clusters: z.array(z.looseObject({ name: z.string(), cluster: clusterSchema })).nullish(),
  users: z.array(z.looseObject({ name: z.string(), user: userSchema.nullish() })).nullish(),
  contexts: z.array(z.looseObject({ name: z.string(), context: contextSchema })).nullish(),
});

export type ClusterEntry = z.infer<typeof clusterSchema>;
export type UserEntry = z.infer<typeof userSchema>;
export type ContextEntry = z.infer<typeof contextSchema>;

/** A kubeconfig's entries by name; the first of two entries with one name wins, as in kubectl. */
export interface KubeConfigEntries {
  readonly currentContext: string | undefined;
  readonly clusters: ReadonlyMap<string, ClusterEntry>;
  readonly users: ReadonlyMap<string, UserEntry>;
  readonly contexts: ReadonlyMap<string, ContextEntry>;
}

/** Reads and checks one file; an error names the file and what is wrong with it. */
export function readKubeConfigFile(file: string): KubeConfigEntries {
  const parsed = kubeConfigFileSchema.safeParse(parseFile(file));
  if (!parsed.success) {
    const problem = (issue: z.core.$ZodIssue): string =>
      issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`;
    throw new Error(`kubeconfig ${file}: ${parsed.error.issues.map(problem).join('; ')}`);
  }
  const directory = path.dirname(path.resolve(file));
  const config = parsed.data;
  return {
    currentContext: config['current-context'] === '' ? undefined : config['current-context'],
    clusters: byName(config.clusters, (entry) => absoluteCluster(entry.cluster, directory)),
    users: byName(config.users, (entry) => absoluteUser(entry.user ?? {}, directory)),
    contexts: byName(config.contexts, (entry) => entry.context),
  };
}

function parseFile(file: string): unknown {
  try {
    const text = readFileSync(file, 'utf8');
    // An empty file is an empty kubeconfig to kubectl (js-yaml 5 calls it an error).
    return text.trim() === '' ? {} : (parseYaml(text) ?? {});
  } catch (error) {
    throw new Error(`kubeconfig ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function byName<E extends { readonly name: string }, T>(
  entries: readonly E[] | null | undefined,
  map: (entry: E) => T,
): Map<string, T> {
  const result = new Map<string, T>();
  for (const entry of entries ?? []) {
    if (!result.has(entry.name)) {
      result.set(entry.name, map(entry));
    }
  }
  return result;
}

function absoluteCluster(cluster: ClusterEntry, directory: string): ClusterEntry {
  const ca = cluster['certificate-authority'];
  return ca === undefined ? cluster : { ...cluster, 'certificate-authority': path.resolve(directory, ca) };
}

function absoluteUser(user: UserEntry, directory: string): UserEntry {
  const resolved: Record<string, string> = {};
  for (const field of ['client-certificate', 'client-key', 'tokenFile'] as const) {
    const value = user[field];
    if (value !== undefined) {
      resolved[field] = path.resolve(directory, value);
    }
  }
  return { ...user, ...resolved };
}
