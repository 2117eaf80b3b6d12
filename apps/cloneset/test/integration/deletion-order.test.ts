import { describe, expect, it } from 'vitest';

import { CLONESET_INSTANCE_ID_LABEL } from '@kruise-ts/api';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import {
  activePods,
  createCloneSet,
  installCloneSetCrd,
  settled,
  startController,
  testClient,
  waitForStatus,
} from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

describe('CloneSet scale-in order', () => {
  it('deletes the pods with the lowest controller.kubernetes.io/pod-deletion-cost first', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'deletion-cost');
    const controller = startController({ kubeConfig, namespace: ns.name });
    try {
      await createCloneSet(client, ns.name, {
        metadata: { name: 'web' },
        spec: {
          replicas: 5,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
          },
        },
      });
      await waitForStatus(client, { namespace: ns.name, name: 'web', description: 'five pods' }, settled);
      const pods = await activePods(client, ns.name, 'app=web');
      const costs = ['100', '-100', '0', '50', '25'];
      for (const [index, pod] of pods.entries()) {
        await client.patch(
          podResource,
          { namespace: ns.name, name: pod.metadata?.name ?? '' },
          {
            type: 'merge',
            body: { metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': costs[index] } } },
          },
        );
      }
      const byCost = new Map(pods.map((pod, index) => [costs[index], pod.metadata?.name ?? '']));
      // The scale-in must be judged by these costs: the pod cache and the CloneSet's are separate watches,
      // so on a loaded machine the new replicas can reach the controller before the annotations do.
      const cache = controller.manager.informers
        .informerFor({ resource: podResource, labelSelector: CLONESET_INSTANCE_ID_LABEL })
        .lister();
      await waitFor(
        () =>
          Promise.resolve(
            cache
              .list()
              .filter((pod) => pod.metadata?.annotations?.['controller.kubernetes.io/pod-deletion-cost'] !== undefined)
              .length === costs.length || undefined,
          ),
        { description: "the controller's cache to show the pods' deletion costs" },
      );

      await client.patch(
        cloneSetResource,
        { namespace: ns.name, name: 'web' },
        { type: 'merge', body: { spec: { replicas: 3 } } },
      );
      await waitForStatus(
        client,
        { namespace: ns.name, name: 'web', description: 'three pods' },
        (cs) => settled(cs) && cs.status?.replicas === 3,
      );
      const left = (await activePods(client, ns.name, 'app=web')).map((pod) => pod.metadata?.name).sort();
      expect(left).toEqual([byCost.get('100'), byCost.get('50'), byCost.get('25')].sort());
    } finally {
      await controller.stop();
    }
  });
});
