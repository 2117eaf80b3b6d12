/**
 * The connection of one command: kubectl's kubeconfig rules (`--kubeconfig`, KUBECONFIG, ~/.kube/config,
 * the in-cluster ServiceAccount; `--context`; `-n`, else the context's namespace, else `default`) over
 * the runtime's light client. @kubernetes/client-node is imported only for credentials the light
 * kubeconfig cannot serve (exec plugins, auth providers, proxies): importing it takes over a second.
 */
import { existsSync, readFileSync } from 'node:fs';

import {
  createRestClient,
  kubeConfigFiles,
  loadKubeConfig,
  needsClientNode,
  readKubeConfigFiles,
  selectContext,
  StaticKubeConfig,
} from '@kruise-ts/controller-runtime';
import type { KubeConfigLike, Reader, RequestSender, Writer } from '@kruise-ts/controller-runtime';

import { HttpsTransport } from './https-transport.ts';

export interface ConnectionFlags {
  readonly kubeconfig?: string | undefined;
  readonly context?: string | undefined;
  readonly namespace?: string | undefined;
}

/** What a command gets: a client and the namespace its objects are in. */
export interface Cluster {
  readonly client: Reader & Writer;
  readonly namespace: string;
  close(): void;
}

const SERVICE_ACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';
const USER_AGENT = 'kruise-ts-cli';
const REQUEST_TIMEOUT_MS = 30_000;

export async function connectCluster(flags: ConnectionFlags, env: NodeJS.ProcessEnv): Promise<Cluster> {
  const { kubeConfig, contextNamespace } = await resolveKubeConfig(flags, env);
  const transport = await transportFor(kubeConfig);
  return {
    client: createRestClient(transport, { fieldManager: USER_AGENT }),
    namespace: flags.namespace ?? contextNamespace ?? 'default',
    close: () => {
      transport.close();
    },
  };
}

/**
 * Node's https for the usual kubeconfig; the runtime's Transport (undici, loaded only then) when the
 * kubeconfig names a proxy, which Node's https does not speak. No client-side rate limit (qps 0): a
 * command sends a handful of requests.
 */
async function transportFor(kubeConfig: KubeConfigLike): Promise<RequestSender & { close(): void }> {
  if ((kubeConfig.getCurrentCluster()?.proxyUrl ?? '') === '') {
    return new HttpsTransport({ kubeConfig, userAgent: USER_AGENT, requestTimeoutMs: REQUEST_TIMEOUT_MS });
  }
  // Its own entry point, so that undici stays out of every other command's modules.
  const { Transport } = await import('@kruise-ts/controller-runtime/transport');
  return new Transport({ kubeConfig, qps: 0, burst: 0, userAgent: USER_AGENT, requestTimeoutMs: REQUEST_TIMEOUT_MS });
}

interface ResolvedKubeConfig {
  readonly kubeConfig: KubeConfigLike;
  readonly contextNamespace: string | undefined;
}

async function resolveKubeConfig(flags: ConnectionFlags, env: NodeJS.ProcessEnv): Promise<ResolvedKubeConfig> {
  const files = kubeConfigFiles(flags.kubeconfig, env);
  if (files.length === 0) {
    return inCluster(flags, env);
  }
  const selected = selectContext(readKubeConfigFiles(files), flags.context);
  const kubeConfig = needsClientNode(selected)
    ? await clientNodeKubeConfig(files, selected.name)
    : new StaticKubeConfig(selected);
  return { kubeConfig, contextNamespace: selected.context.namespace };
}

async function inCluster(flags: ConnectionFlags, env: NodeJS.ProcessEnv): Promise<ResolvedKubeConfig> {
  if (env['KUBERNETES_SERVICE_HOST'] === undefined || flags.context !== undefined) {
    throw new Error('no kubeconfig: pass --kubeconfig FILE, set KUBECONFIG or create ~/.kube/config');
  }
  const namespace = existsSync(SERVICE_ACCOUNT_NAMESPACE)
    ? readFileSync(SERVICE_ACCOUNT_NAMESPACE, 'utf8').trim()
    : undefined;
  return { kubeConfig: await loadKubeConfig(undefined, env), contextNamespace: namespace };
}

/** client-node's KubeConfig of the same files, merged first-wins as above (its own mergeConfig throws on a repeated name). */
async function clientNodeKubeConfig(files: readonly string[], contextName: string): Promise<KubeConfigLike> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const merged = new KubeConfig();
  for (const file of files) {
    const next = new KubeConfig();
    next.loadFromFile(file);
    next.clusters
      .filter((entry) => merged.getCluster(entry.name) === null)
      .forEach((entry) => {
        merged.addCluster(entry);
      });
    next.users
      .filter((entry) => merged.getUser(entry.name) === null)
      .forEach((entry) => {
        merged.addUser(entry);
      });
    next.contexts
      .filter((entry) => merged.getContextObject(entry.name) === null)
      .forEach((entry) => {
        merged.addContext(entry);
      });
  }
  merged.setCurrentContext(contextName);
  return merged;
}
