import { randomBytes } from 'node:crypto';

import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { inject } from 'vitest';

import './provided-context.ts';
import { waitFor } from '../internal/wait-for.ts';

/** The admin KubeConfig of the run's shared control plane. */
export function testKubeConfig(): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(inject('kubeconfigPath'));
  return kubeConfig;
}

/** A namespace of one test; disposing it deletes the namespace (without waiting for it to go). */
export interface TestNamespace extends AsyncDisposable {
  readonly name: string;
}

/**
 * Creates a uniquely named namespace and waits for its `default` ServiceAccount, without which the
 * ServiceAccount admission plugin rejects pods. Use with `await using ns = await createTestNamespace(...)`.
 */
export async function createTestNamespace(kubeConfig: KubeConfig, prefix: string): Promise<TestNamespace> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const name = `${prefix
    .toLowerCase()
    .replaceAll(/[^a-z0-9-]/g, '-')
    .slice(0, 40)}-${randomBytes(3).toString('hex')}`;
  await core.createNamespace({ body: { metadata: { name, labels: { 'kruise-ts.io/test': 'true' } } } });
  await waitFor(
    async () => (await core.readNamespacedServiceAccount({ name: 'default', namespace: name })).metadata?.name,
    {
      description: `the default ServiceAccount of namespace ${name}`,
    },
  );
  return {
    name,
    [Symbol.asyncDispose]: async () => {
      await core.deleteNamespace({ name }).catch(() => undefined);
    },
  };
}
