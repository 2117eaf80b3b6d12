/**
 * In-place updates beyond images: env values taken from labels through the downward API (needs a
 * node agent that restarts the container; kruise-daemon in OpenKruise, our simulator here), and cpu /
 * memory through the pods/resize subresource behind the InPlaceWorkloadVerticalScaling gate.
 */
import { describe, expect, it } from 'vitest';

import { startContainerMetaReporter } from '@kruise-ts/inplace-update/testing';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

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
import { restartsOf, uidOf } from '../support/pods.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

const updatedEverywhere = (cs: {
  status?: { currentRevision?: string | undefined; updateRevision?: string | undefined } | undefined;
}): boolean => cs.status?.currentRevision !== undefined && cs.status.currentRevision === cs.status.updateRevision;

describe('CloneSet in-place update of metadata-sourced env and of resources', () => {
  it('a label that feeds an env var changes in place: same pods, the container restarts once with the new value', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'inplace-env');
    const reporter = startContainerMetaReporter({ kubeConfig, namespace: ns.name });
    const controller = startController({ kubeConfig, namespace: ns.name });
    try {
      await createCloneSet(client, ns.name, {
        metadata: { name: 'env' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'env' } },
          template: {
            metadata: { labels: { app: 'env', 'app-version': 'v1' } },
            spec: {
              containers: [
                {
                  name: 'main',
                  image: 'nginx:1.25',
                  env: [
                    { name: 'APP_VERSION', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app-version']" } } },
                  ],
                },
              ],
            },
          },
          updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 },
        },
      });
      await waitForStatus(client, { namespace: ns.name, name: 'env', description: 'two pods' }, settled);
      // The node agent has reported the running containers before the update starts.
      const before = await waitFor(
        async () => {
          const pods = await activePods(client, ns.name, 'app=env');
          return pods.every(
            (pod) => pod.metadata?.annotations?.['apps.kruise.io/runtime-containers-meta'] !== undefined,
          )
            ? pods
            : undefined;
        },
        { description: 'runtime-containers-meta on both pods' },
      );

      await client.patch(
        cloneSetResource,
        { namespace: ns.name, name: 'env' },
        { type: 'merge', body: { spec: { template: { metadata: { labels: { 'app-version': 'v2' } } } } } },
      );
      await waitForStatus(
        client,
        { namespace: ns.name, name: 'env', description: 'updated in place' },
        (cs) => settled(cs) && updatedEverywhere(cs),
      );
      const after = await activePods(client, ns.name, 'app=env');
      expect(after.map(uidOf).sort()).toEqual(before.map(uidOf).sort());
      expect(after.map((pod) => pod.metadata?.labels?.['app-version'])).toEqual(['v2', 'v2']);
      expect(after.map((pod) => restartsOf(pod))).toEqual([1, 1]);
    } finally {
      await controller.stop();
      await reporter.stop();
    }
  });

  it('with InPlaceWorkloadVerticalScaling, a cpu/memory change resizes the pods in place without a restart', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'inplace-resize');
    const controller = startController({
      kubeConfig,
      namespace: ns.name,
      featureGates: 'InPlaceWorkloadVerticalScaling=true',
    });
    try {
      const resources = (
        cpu: string,
        memory: string,
      ): { requests: Record<string, string>; limits: Record<string, string> } => ({
        requests: { cpu, memory },
        limits: { cpu, memory },
      });
      await createCloneSet(client, ns.name, {
        metadata: { name: 'sized' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'sized' } },
          template: {
            metadata: { labels: { app: 'sized' } },
            spec: { containers: [{ name: 'main', image: 'nginx:1.25', resources: resources('100m', '128Mi') }] },
          },
          updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 },
        },
      });
      await waitForStatus(client, { namespace: ns.name, name: 'sized', description: 'two pods' }, settled);
      const before = await activePods(client, ns.name, 'app=sized');
      await client.patch(
        cloneSetResource,
        { namespace: ns.name, name: 'sized' },
        {
          type: 'json',
          body: [
            { op: 'replace', path: '/spec/template/spec/containers/0/resources', value: resources('200m', '256Mi') },
          ],
        },
      );
      await waitForStatus(
        client,
        { namespace: ns.name, name: 'sized', description: 'resized in place' },
        (cs) => settled(cs) && updatedEverywhere(cs),
      );
      const after = await activePods(client, ns.name, 'app=sized');
      expect(after.map(uidOf).sort()).toEqual(before.map(uidOf).sort());
      for (const pod of after) {
        expect(pod.spec?.containers[0]?.resources).toEqual(resources('200m', '256Mi'));
        expect(pod.status?.containerStatuses?.[0]?.resources).toEqual(resources('200m', '256Mi'));
        expect(restartsOf(pod)).toBe(0);
      }
    } finally {
      await controller.stop();
    }
  });
});
