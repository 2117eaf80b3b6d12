import type https from 'node:https';

/**
 * What the transport needs of a kubeconfig: the server, and the TLS material and credentials of the
 * current context. @kubernetes/client-node's `KubeConfig` has this shape (tests and tools pass one);
 * an app's main passes the lighter one of `loadKubeConfig`, which does not load client-node at all
 * for the usual kubeconfigs (importing it costs 25 MiB of heap and 1.5 s: every generated model).
 */
export interface KubeConfigLike {
  getCurrentCluster(): { readonly server: string; readonly proxyUrl?: string | undefined } | null;
  /**
   * Puts the current context's TLS material (ca, cert, key, rejectUnauthorized, servername) and
   * credentials (`headers.Authorization`, or `auth` for a username and password) into `options`.
   * Called for every request: a token file can change while the process runs.
   */
  applyToHTTPSOptions(options: https.RequestOptions): Promise<void>;
}

/** The API server of the kubeconfig's current cluster; an error when it has none. */
export function currentServer(kubeConfig: KubeConfigLike): URL {
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster === null) {
    throw new Error('the kubeconfig has no current cluster');
  }
  return new URL(cluster.server);
}
