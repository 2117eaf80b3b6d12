/**
 * The light kubeconfig of the controllers and the CLI: the in-cluster ServiceAccount, and kubeconfig
 * files (read by kubeconfig-files.ts) whose user has a token, a token file, a client certificate or a
 * username and password. Anything else (exec plugins, auth providers, proxies, several files in KUBECONFIG) is
 * handed to @kubernetes/client-node, loaded only then: importing it costs 25 MiB of heap and 1.5 s.
 */
import { existsSync, readFileSync } from 'node:fs';
import type https from 'node:https';
import path from 'node:path';
import { isIPv6 } from 'node:net';

import type { KubeConfigLike } from './cluster-config.ts';
import type { UserEntry } from './kubeconfig-file.ts';
import { kubeConfigFiles, readKubeConfigFiles, selectContext } from './kubeconfig-files.ts';
import type { SelectedContext } from './kubeconfig-files.ts';

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
/** Projected ServiceAccount tokens rotate; client-go re-reads the file at least every minute. */
const TOKEN_FILE_MAX_AGE_MS = 60_000;

/** A context's cluster and user, their file names absolute (see kubeconfig-file.ts). */
export type CurrentContext = Pick<SelectedContext, 'cluster' | 'user'>;

/** Reads the current context of one file; an error names the file and what is wrong or missing. */
export function readCurrentContext(file: string): CurrentContext {
  const entries = readKubeConfigFiles([file]);
  try {
    const { cluster, user } = selectContext(entries, undefined);
    return { cluster, user };
  } catch (error) {
    throw new Error(`kubeconfig ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
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
    const { cluster, user } = context;
    const fileOrData = (file: string | undefined, data: string | undefined): Buffer | undefined =>
      file === undefined ? (data === undefined ? undefined : Buffer.from(data, 'base64')) : readFileSync(file);
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
    this.#token = tokenSource(user);
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
      options.headers = isHeaderList(options.headers)
        ? [...options.headers, 'Authorization', `Bearer ${token}`]
        : { ...options.headers, Authorization: `Bearer ${token}` };
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

function tokenSource(user: UserEntry): (() => string) | undefined {
  if (user.token !== undefined) {
    const token = user.token;
    return () => token;
  }
  if (user.tokenFile !== undefined) {
    const file = new TokenFile(user.tokenFile);
    return () => file.current();
  }
  return undefined;
}

/** The in-cluster context: the ServiceAccount's token and CA, the API server from the environment. */
export function inClusterContext(
  env: NodeJS.ProcessEnv,
  serviceAccountDir = SERVICE_ACCOUNT_DIR,
): CurrentContext | undefined {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  if (host === undefined || port === undefined || !existsSync(path.join(serviceAccountDir, 'token'))) {
    return undefined;
  }
  const server = `https://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  return {
    cluster: { server, 'certificate-authority': path.join(serviceAccountDir, 'ca.crt') },
    user: { tokenFile: path.join(serviceAccountDir, 'token') },
  };
}

/** Where the default kubeconfig is, in kubectl's order; `in-cluster` when none is and a ServiceAccount is. */
export function defaultKubeConfigSource(
  env: NodeJS.ProcessEnv,
): { readonly files: readonly string[] } | 'in-cluster' | undefined {
  const files = kubeConfigFiles(undefined, env);
  if (files.length > 0) {
    return { files };
  }
  return env['KUBERNETES_SERVICE_HOST'] === undefined ? undefined : 'in-cluster';
}
