/**
 * The kruise-daemon simulator on its own: it reports runtime-containers-meta for pods whose env reads
 * labels or annotations, keeps it current when kwok restarts a container, and restarts a container
 * itself only while an in-place update runs.
 */
import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { envFromMetadataHash, runtimeContainerMeta } from '../../src/index.ts';
import type { RuntimeContainerMeta } from '../../src/index.ts';
import { simulatedContainerId, startContainerMetaReporter } from '../../src/testing/index.ts';
import { countingClient, createRunningPod } from './support.ts';

const kubeConfig = testKubeConfig();

function metaOf(pod: DeepReadonly<Pod>): readonly RuntimeContainerMeta[] | undefined {
  const read = runtimeContainerMeta(pod);
  return read.kind === 'meta' ? read.meta.containers : undefined;
}

function expectedHash(pod: DeepReadonly<Pod>): number {
  const container = pod.spec?.containers[0];
  return container === undefined
    ? -1
    : envFromMetadataHash(container, { labels: pod.metadata?.labels, annotations: pod.metadata?.annotations });
}

describe('startContainerMetaReporter', () => {
  it('reports, follows restarts by the kubelet, and restarts containers during in-place updates', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'meta-reporter');
    const reporter = startContainerMetaReporter({ kubeConfig, namespace: ns.name });
    try {
      await reporter.synced;
      const { client } = countingClient(kubeConfig);
      const key = { namespace: ns.name, name: 'web' };
      const template = {
        metadata: { labels: { app: 'demo', track: 'stable' } },
        spec: {
          containers: [
            {
              name: 'main',
              image: 'nginx:1.25',
              env: [{ name: 'TRACK', valueFrom: { fieldRef: { fieldPath: "metadata.labels['track']" } } }],
            },
          ],
        },
      };
      await createRunningPod({ client, namespace: ns.name, name: 'web', template, revision: 'demo-1' });
      await createRunningPod({
        client,
        namespace: ns.name,
        name: 'plain',
        template: { spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
        revision: 'demo-1',
      });

      // 1. The meta of the running container, with the hash of the current label.
      const first = await waitFor(
        async () => {
          const pod = await client.get(podResource, key);
          return metaOf(pod) === undefined ? undefined : pod;
        },
        { description: 'runtime-containers-meta' },
      );
      expect(metaOf(first)).toEqual([
        {
          name: 'main',
          containerID: first.status?.containerStatuses?.[0]?.containerID,
          restartCount: 0,
          hashes: { plainHash: 0, extractedEnvFromMetadataHash: expectedHash(first) },
        },
      ]);

      // 2. kwok restarts the container for a new image: the new container id is reported.
      await client.patch(podResource, key, {
        type: 'strategic',
        body: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } },
      });
      const afterImage = await waitFor(
        async () => {
          const pod = await client.get(podResource, key);
          const id = pod.status?.containerStatuses?.[0]?.containerID;
          return pod.status?.containerStatuses?.[0]?.restartCount === 1 && metaOf(pod)?.[0]?.containerID === id
            ? pod
            : undefined;
        },
        { description: 'the meta of the restarted container' },
      );
      expect(metaOf(afterImage)?.[0]).toMatchObject({
        restartCount: 1,
        hashes: { extractedEnvFromMetadataHash: expectedHash(afterImage) },
      });

      // 3. During an in-place update (InPlaceUpdateReady False) a changed label restarts the container.
      await client.patchStatus(podResource, key, {
        type: 'strategic',
        body: { status: { conditions: [{ type: 'InPlaceUpdateReady', status: 'False' }] } },
      });
      await client.patch(podResource, key, { type: 'merge', body: { metadata: { labels: { track: 'canary' } } } });
      const restarted = await waitFor(
        async () => {
          const pod = await client.get(podResource, key);
          return metaOf(pod)?.[0]?.hashes.extractedEnvFromMetadataHash === expectedHash(pod) &&
            pod.status?.containerStatuses?.[0]?.restartCount === 2
            ? pod
            : undefined;
        },
        { description: 'the simulator to restart the container and report its new hash' },
      );
      const status = restarted.status?.containerStatuses?.[0];
      expect(status).toMatchObject({
        restartCount: 2,
        containerID: simulatedContainerId(restarted, 'main', 2),
        lastState: { terminated: { containerID: afterImage.status?.containerStatuses?.[0]?.containerID } },
      });
      expect(metaOf(restarted)?.[0]?.containerID).toBe(status?.containerID);
      expect(reporter.restarts()).toBe(1);

      // A pod without env from metadata is left alone.
      const plain = await client.get(podResource, { namespace: ns.name, name: 'plain' });
      expect(metaOf(plain)).toBeUndefined();
    } finally {
      await reporter.stop();
    }
  });
});
