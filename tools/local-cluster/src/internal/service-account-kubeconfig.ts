/**
 * A kubeconfig that authenticates as a ServiceAccount (a bound token from the TokenRequest API): the
 * chart tests act exactly as a deployed app would (with its RBAC, not the admin's), and benchmarks
 * give each contender an identity of its own that the audit log tells apart.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';

/** Where the ServiceAccount's kubeconfig file is, and the same configuration loaded. */
export interface ServiceAccountKubeConfig {
  readonly path: string;
  readonly kubeConfig: KubeConfig;
  /** `system:serviceaccount:<namespace>:<name>`. */
  readonly username: string;
}

/**
 * Requests a token for `namespace/name` (one hour unless told) with the admin configuration and writes a kubeconfig
 * with the admin's cluster (server and CA) and that token as its only user.
 */
export async function serviceAccountKubeConfig(
  admin: KubeConfig,
  account: {
    readonly namespace: string;
    readonly name: string;
    readonly expirationSeconds?: number;
    readonly directory?: string;
  },
): Promise<ServiceAccountKubeConfig> {
  const core = admin.makeApiClient(CoreV1Api);
  const request = await core.createNamespacedServiceAccountToken({
    name: account.name,
    namespace: account.namespace,
    body: { spec: { audiences: [], expirationSeconds: account.expirationSeconds ?? 3600 } },
  });
  const token = request.status?.token;
  if (token === undefined || token === '') {
    throw new Error(`the TokenRequest for ${account.namespace}/${account.name} returned no token`);
  }
  const cluster = admin.getCurrentCluster();
  if (cluster === null) {
    throw new Error('the admin kubeconfig has no current cluster');
  }
  const username = `system:serviceaccount:${account.namespace}:${account.name}`;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [cluster],
    users: [{ name: username, token }],
    contexts: [{ name: 'service-account', cluster: cluster.name, user: username }],
    currentContext: 'service-account',
  });
  const file = path.join(
    account.directory ?? (await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-sa-'))),
    `${account.name}.kubeconfig`,
  );
  await writeFile(file, kubeConfig.exportConfig(), { mode: 0o600 });
  return { path: file, kubeConfig, username };
}
