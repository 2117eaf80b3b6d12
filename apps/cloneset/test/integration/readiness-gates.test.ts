/**
 * Which readiness gates a new pod gets (a pod's gates are fixed at creation): none for a ReCreate
 * CloneSet without markPodNotReady hooks, so its pods cost one write each; both for in-place
 * strategies; KruisePodReady alone for a ReCreate CloneSet whose hooks mark pods not ready.
 */
import { describe, expect, it } from 'vitest';

import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { cloneSetResource } from '../../src/index.ts';
import { activePods, createCloneSet, installCloneSetCrd, observePods, PodWriteCounter, settled, startController, testClient, waitForStatus } from '../support/harness.ts';
import type { CloneSetManifest } from '../support/harness.ts';
import { conditionOf, imageOf, nameOf, restartsOf, uidOf } from '../support/pods.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

function web(name: string, replicas: number, spec: Partial<CloneSetManifest['spec']> = {}): CloneSetManifest {
  return {
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
      ...spec,
    },
  };
}

const gatesOf = (pod: { spec?: { readinessGates?: { conditionType: string }[] | undefined } | undefined }): string[] => (pod.spec?.readinessGates ?? []).map((gate) => gate.conditionType).sort();

describe('CloneSet readiness gates', () => {
  it('ReCreate: pods carry no gate and cost one create each; after a switch to InPlaceIfPossible they update in place and new pods carry both gates', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'gates-recreate');
    const writes = new PodWriteCounter();
    const controller = startController({ kubeConfig, namespace: ns.name, requestObservers: [writes] });
    try {
      await createCloneSet(client, ns.name, web('web', 3, { updateStrategy: { type: 'ReCreate' } }));
      await waitForStatus(client, { namespace: ns.name, name: 'web', description: 'three ready pods' }, settled);
      const before = await activePods(client, ns.name, 'app=web');
      expect(before.map(gatesOf)).toEqual([[], [], []]);
      expect(before.every((pod) => conditionOf(pod, 'Ready')?.status === 'True')).toBe(true);
      expect(writes.writes.map((write) => `${write.verb} ${write.subresource}`.trim())).toEqual(['create', 'create', 'create']);
      expect(writes.failed).toEqual([]);

      // A gate-less pod is updated in place without a readiness dip: nothing could take it out of Ready.
      let sawUnready = false;
      const observer = observePods(kubeConfig, { namespace: ns.name, labelSelector: 'app=web' }, (pods) => {
        sawUnready ||= pods.some((pod) => pod.metadata?.deletionTimestamp === undefined && conditionOf(pod, 'Ready')?.status === 'False');
      });
      await observer.synced;
      try {
        await client.patch(cloneSetResource, { namespace: ns.name, name: 'web' }, {
          type: 'merge',
          body: { spec: { updateStrategy: { type: 'InPlaceIfPossible' }, template: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } } } },
        });
        await waitForStatus(client, { namespace: ns.name, name: 'web', description: 'updated in place' }, (cs) => settled(cs) && cs.status?.currentRevision === cs.status?.updateRevision);
      } finally {
        observer.stop();
      }
      const after = await activePods(client, ns.name, 'app=web');
      expect(after.map(uidOf)).toEqual(before.map(uidOf));
      expect(after.map(imageOf)).toEqual(['nginx:1.27', 'nginx:1.27', 'nginx:1.27']);
      expect(after.map(restartsOf)).toEqual([1, 1, 1]);
      expect(sawUnready).toBe(false);

      await client.patch(cloneSetResource, { namespace: ns.name, name: 'web' }, { type: 'merge', body: { spec: { replicas: 4 } } });
      await waitForStatus(client, { namespace: ns.name, name: 'web', description: 'four ready pods' }, settled);
      const added = (await activePods(client, ns.name, 'app=web')).filter((pod) => !before.map(uidOf).includes(uidOf(pod)));
      expect(added.map(gatesOf)).toEqual([['InPlaceUpdateReady', 'KruisePodReady']]);
      expect(added.map((pod) => [conditionOf(pod, 'InPlaceUpdateReady')?.status, conditionOf(pod, 'KruisePodReady')?.status, conditionOf(pod, 'Ready')?.status])).toEqual([['True', 'True', 'True']]);
    } finally {
      await controller.stop();
    }
  });

  it('ReCreate with a preDelete hook that marks pods not ready: pods carry KruisePodReady only, and it turns False before deletion', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'gates-predelete');
    const controller = startController({ kubeConfig, namespace: ns.name });
    try {
      const hook = { labelsHandler: { 'example.io/hold': 'true' }, markPodNotReady: true };
      const manifest = web('held', 2, { updateStrategy: { type: 'ReCreate' }, lifecycle: { preDelete: hook } });
      await createCloneSet(client, ns.name, { ...manifest, spec: { ...manifest.spec, template: { ...manifest.spec.template, metadata: { labels: { app: 'held', 'example.io/hold': 'true' } } } } });
      await waitForStatus(client, { namespace: ns.name, name: 'held', description: 'two ready pods' }, settled);
      const pods = await activePods(client, ns.name, 'app=held');
      expect(pods.map(gatesOf)).toEqual([['KruisePodReady'], ['KruisePodReady']]);

      await client.patch(cloneSetResource, { namespace: ns.name, name: 'held' }, { type: 'merge', body: { spec: { replicas: 1 } } });
      const held = await waitFor(async () => {
        const current = await activePods(client, ns.name, 'app=held');
        return current.find((pod) => pod.metadata?.labels?.['lifecycle.apps.kruise.io/state'] === 'PreparingDelete');
      }, { description: 'a pod held in PreparingDelete' });
      expect(conditionOf(held, 'KruisePodReady')?.status).toBe('False');
      const unready = await waitFor(async () => {
        const current = (await activePods(client, ns.name, 'app=held')).find((pod) => nameOf(pod) === nameOf(held));
        return current !== undefined && conditionOf(current, 'Ready')?.status === 'False' ? current : undefined;
      }, { description: 'the held pod not Ready' });
      expect(nameOf(unready)).toBe(nameOf(held));
    } finally {
      await controller.stop();
    }
  });
});
