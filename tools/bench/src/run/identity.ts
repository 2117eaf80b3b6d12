/**
 * The contender's own identity: a ServiceAccount bound to cluster-admin and a kubeconfig with a
 * token for it. The local control plane's components share one admin token, so a separate identity
 * is what lets the audit log attribute every request to the contender (permissions are not what is
 * measured, so it may do anything, and it is treated by the API server exactly as the admin is).
 */
import { CoreV1Api, FlowcontrolApiserverV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';

import { serviceAccountKubeConfig } from '@kruise-ts/local-cluster';

export const IDENTITY_NAMESPACE = 'kruise-bench';
const ACCOUNT = 'contender';

export interface ContenderIdentity {
  readonly kubeconfigPath: string;
  readonly username: string;
}

/**
 * kube-controller-manager talks with the local control plane's admin identity (system:masters), which
 * API Priority and Fairness exempts from its queues; a ServiceAccount lands in `workload-low` and gets
 * throttled (429) under load. The same treatment for every contender: the contender is exempt too.
 */
async function exemptFromPriorityAndFairness(admin: KubeConfig): Promise<void> {
  await admin.makeApiClient(FlowcontrolApiserverV1Api).createFlowSchema({
    body: {
      metadata: { name: 'kruise-bench-contender' },
      spec: {
        priorityLevelConfiguration: { name: 'exempt' },
        matchingPrecedence: 2,
        rules: [
          {
            subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: ACCOUNT, namespace: IDENTITY_NAMESPACE } }],
            resourceRules: [
              { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true },
            ],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
          },
        ],
      },
    },
  });
}

export async function createContenderIdentity(admin: KubeConfig, directory: string): Promise<ContenderIdentity> {
  const core = admin.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: IDENTITY_NAMESPACE } } });
  await core.createNamespacedServiceAccount({ namespace: IDENTITY_NAMESPACE, body: { metadata: { name: ACCOUNT } } });
  await admin.makeApiClient(RbacAuthorizationV1Api).createClusterRoleBinding({
    body: {
      metadata: { name: 'kruise-bench-contender' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: ACCOUNT, namespace: IDENTITY_NAMESPACE }],
    },
  });
  await exemptFromPriorityAndFairness(admin);
  const account = await serviceAccountKubeConfig(admin, {
    namespace: IDENTITY_NAMESPACE,
    name: ACCOUNT,
    expirationSeconds: 24 * 3600,
    directory,
  });
  return { kubeconfigPath: account.path, username: account.username };
}
