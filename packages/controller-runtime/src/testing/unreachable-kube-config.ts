import { KubeConfig } from '@kubernetes/client-node';

/**
 * A kubeconfig whose API server cannot be reached (port 1 of the loopback address refuses at once):
 * for managers that are built and registered against but must never talk to a cluster.
 */
export function unreachableKubeConfig(): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kubeConfig;
}
