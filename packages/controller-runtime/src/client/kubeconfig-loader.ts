/**
 * A kubeconfig reader for the credentials controllers run with: the in-cluster ServiceAccount, and
 * kubeconfig files whose user has a token, a token file, a client certificate or a username and
 * password. Anything else (exec plugins, auth providers, proxies, several files in KUBECONFIG) is
 * handed to @kubernetes/client-node, loaded only then: importing it costs 25 MiB of heap and 1.5 s.
 */
import { existsSync, readFileSync } from 'node:fs';
import type https from 'node:https';
import { homedir } from 'node:os';
import path from 'node:path';
import { isIPv6 } from 'node:net';

import { load as parseYaml } from 'js-yaml';
import { z } from 'zod';

import type { KubeConfigLike } from './cluster-config.ts';

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
/** Projected ServiceAccount tokens rotate; client-go re-reads the file at least every minute. */
const TOKEN_FILE_MAX_AGE_MS = 60_000;

const clusterSchema = z.looseObject({
  server: z.string().min(1),
  'certificate-authority': z.string().optional(),
  'certificate-authority-data': z.string().optional(),
  'insecure-skip-tls-verify': z.boolean().optional(),
  'tls-server-name': z.string().optional(),
  'proxy-url': z.string().optional(),
});

const userSchema = z.looseObject({
  token: z.string().optional(),
  tokenFile: z.string().optional(),
  'client-certificate': z.string().optional(),
  'client-certificate-data': z.string().optional(),
  'client-key': z.string().optional(),
  'client-key-data': z.string().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  exec: z.unknown().optional(),
  'auth-provider': z.unknown().optional(),
});

const kubeConfigFileSchema = z.looseObject({
  'current-context': z.string().optional(),
  clusters: z.array(z.looseObject({ name: z.string(), cluster: clusterSchema })).nullish(),
  users: z.array(z.looseObject({ name: z.string(), user: userSchema.nullish() })).nullish(),
  contexts: z.array(z.looseObject({ name: z.string(), context: z.looseObject({ cluster: z.string(), user: z.string().optional() }) })).nullish(),
});

type ClusterEntry = z.infer<typeof clusterSchema>;
type UserEntry = z.infer<typeof userSchema>;

/** The current context of a kubeconfig file, resolved; relative file names are relative to the file. */
export interface CurrentContext {
  readonly cluster: ClusterEntry;
  readonly user: UserEntry;
  readonly directory: string;
}

/** Reads a file's current context; an error names the file and what is missing. */
export function readCurrentContext(file: string): CurrentContext {
  const config = parseKubeConfigFile(file);
  const contextName = config['current-context'];
  const context = byName(config.contexts, contextName)?.context;
  if (context === undefined) {
    throw new Error(`kubeconfig ${file}: the current context ${JSON.stringify(contextName ?? '')} is not among its contexts`);
  }
  const cluster = byName(config.clusters, context.cluster)?.cluster;
  if (cluster === undefined) {
    throw new Error(`kubeconfig ${file}: context ${JSON.stringify(contextName)} names cluster ${JSON.stringify(context.cluster)}, which it does not define`);
  }
  const user = byName(config.users, context.user)?.user ?? {};
  return { cluster, user, directory: path.dirname(file) };
}

function byName<T extends { readonly name: string }>(entries: readonly T[] | null | undefined, name: string | undefined): T | undefined {
  return entries?.find((entry) => entry.name === name);
}

/** The file's kubeconfig; a YAML syntax error (or an empty file) and a schema error name the file. */
function parseKubeConfigFile(file: string): z.infer<typeof kubeConfigFileSchema> {
  const text = readFileSync(file, 'utf8');
  let yaml: unknown;
  try {
    yaml = parseYaml(text);
  } catch (error) {
    throw new Error(`kubeconfig ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const parsed = kubeConfigFileSchema.safeParse(yaml);
  if (!parsed.success) {
    const problem = (issue: z.core.$ZodIssue): string => (issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`kubeconfig ${file}: ${parsed.error.issues.map(problem).join('; ')}`);
  }
  return parsed.data;
}

/** The context needs what only client-node implements. */
export function needsClientNode(context: CurrentContext): boolean {
  return context.user.exec != null || context.user['auth-provider'] != null || context.cluster['proxy-url'] !== undefined;
}

/** Credentials read from a file (a token), again when they are older than a minute. */
class TokenFile {
  readonly #file: string;
  #token: string | undefined;
  #readAt = 0;

  constructor(file: string) {
    this.#file = file;
  }

  current(): string {
    if (this.#token === undefined || Date.now() - this.#readAt > TOKEN_FILE_MAX_AGE_MS) {
      this.#token = readFileSync(this.#file, 'utf8').trim();
      this.#readAt = Date.now();
    }
    return this.#token;
  }
}

/** A kubeconfig context with static TLS material and a token, token file or basic credentials. */
export class StaticKubeConfig implements KubeConfigLike {
  readonly #server: string;
  readonly #tls: https.RequestOptions;
  readonly #token: (() => string) | undefined;
  readonly #basicAuth: string | undefined;

  constructor(context: CurrentContext) {
    const { cluster, user, directory } = context;
    const fileOrData = (file: string | undefined, data: string | undefined): Buffer | undefined =>
      file === undefined ? (data === undefined ? undefined : Buffer.from(data, 'base64')) : readFileSync(path.resolve(directory, file));
    this.#server = cluster.server;
    const ca = fileOrData(cluster['certificate-authority'], cluster['certificate-authority-data']);
    const cert = fileOrData(user['client-certificate'], user['client-certificate-data']);
    const key = fileOrData(user['client-key'], user['client-key-data']);
    this.#tls = {
      ...(ca === undefined ? {} : { ca }),
      ...(cert === undefined ? {} : { cert }),
      ...(key === undefined ? {} : { key }),
      ...(cluster['insecure-skip-tls-verify'] === true ? { rejectUnauthorized: false } : {}),
      ...(cluster['tls-server-name'] === undefined ? {} : { servername: cluster['tls-server-name'] }),
    };
    this.#token = tokenSource(user, directory);
    this.#basicAuth = user.username === undefined ? undefined : `${user.username}:${user.password ?? ''}`;
  }

  getCurrentCluster(): { server: string } {
    return { server: this.#server };
  }

  applyToHTTPSOptions(options: https.RequestOptions): Promise<void> {
    Object.assign(options, this.#tls);
    const token = this.#token?.();
    if (token !== undefined && token !== '') {
      // Node also takes headers as a flat [name, value, ...] list.
      options.headers = isHeaderList(options.headers) ? [...options.headers, 'Authorization', `Bearer ${token}`] : { ...options.headers, Authorization: `Bearer ${token}` };
    }
    if (this.#basicAuth !== undefined) {
      options.auth = this.#basicAuth;
    }
    return Promise.resolve();
  }
}

function isHeaderList(headers: https.RequestOptions['headers']): headers is readonly string[] {
  return Array.isArray(headers);
}

function tokenSource(user: UserEntry, directory: string): (() => string) | undefined {
  if (user.token !== undefined) {
    const token = user.token;
    return () => token;
  }
  if (user.tokenFile !== undefined) {
    const file = new TokenFile(path.resolve(directory, user.tokenFile));
    return () => file.current();
  }
  return undefined;
}

/** The in-cluster context: the ServiceAccount's token and CA, the API server from the environment. */
export function inClusterContext(env: NodeJS.ProcessEnv, serviceAccountDir = SERVICE_ACCOUNT_DIR): CurrentContext | undefined {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  if (host === undefined || port === undefined || !existsSync(path.join(serviceAccountDir, 'token'))) {
    return undefined;
  }
  const server = `https://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  return {
    cluster: { server, 'certificate-authority': path.join(serviceAccountDir, 'ca.crt') },
    user: { tokenFile: path.join(serviceAccountDir, 'token') },
    directory: serviceAccountDir,
  };
}

/** Where the default kubeconfig is, in kubectl's order; `in-cluster` when none is and a ServiceAccount is. */
export function defaultKubeConfigSource(env: NodeJS.ProcessEnv): { readonly files: readonly string[] } | 'in-cluster' | undefined {
  const listed = (env['KUBECONFIG'] ?? '').split(path.delimiter).filter((file) => file !== '');
  if (listed.length > 0) {
    return { files: listed };
  }
  const home = path.join(env['HOME'] ?? homedir(), '.kube', 'config');
  if (existsSync(home)) {
    return { files: [home] };
  }
  return env['KUBERNETES_SERVICE_HOST'] === undefined ? undefined : 'in-cluster';
}
