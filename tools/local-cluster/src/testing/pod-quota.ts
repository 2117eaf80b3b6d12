/**
 * A namespace where every pod creation is refused by the API server (a ResourceQuota of no pods), for
 * tests of how a controller handles refused creations: unlike a broken template, a quota refusal
 * passes the template's dry run, so only real creations fail.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';

import { waitFor } from '../internal/wait-for.ts';

const QUOTA_NAME = 'no-pods';

/** Puts a quota of no pods in force in `namespace`; resolves once the API server refuses a pod there. */
export async function forbidPods(kubeConfig: KubeConfig, namespace: string): Promise<void> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const quota = await core.createNamespacedResourceQuota({
    namespace,
    body: { metadata: { name: QUOTA_NAME }, spec: { hard: { pods: '0' } } },
  });
  // The local control plane runs no quota controller: the status that puts the quota in force is written here.
  await core.replaceNamespacedResourceQuotaStatus({
    namespace,
    name: QUOTA_NAME,
    body: {
      metadata: quota.metadata ?? {},
      spec: quota.spec ?? {},
      status: { hard: { pods: '0' }, used: { pods: '0' } },
    },
  });
  // The API server's quota cache may lag behind the write: wait until a pod is refused.
  const probe = { metadata: { name: 'probe' }, spec: { containers: [{ name: 'main', image: 'busybox:1.36' }] } };
  await waitFor(
    () =>
      core.createNamespacedPod({ namespace, body: probe, dryRun: 'All' }).then(
        () => undefined,
        () => true,
      ),
    { description: 'the quota in force' },
  );
}
