/**
 * `--cloneset-recreate-without-readiness-gates`: a ReCreate CloneSet's pods get no readiness gate (a
 * pod's gates are fixed at creation), so each costs its create alone; after a switch to
 * InPlaceIfPossible such pods are recreated rather than restarted inside Service endpoints, and the
 * pods made then carry both gates and are updated in place from there on. InPlaceOnly, which never
 * recreates, updates gate-less pods in place as OpenKruise does. Without the flag every pod carries
 * both gates (scale.test.ts).
 */
import { describe, expect, it } from 'vitest';

import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { cloneSetResource } from '../../src/index.ts';
import {
  activePods,
  createCloneSet,
  observePods,
  PodWriteCounter,
  rolledOut,
  settled,
  testClient,
  waitForStatus,
  webCloneSet,
  withController,
} from '../support/harness.ts';
import type { CloneSetManifest } from '../support/harness.ts';
import { conditionOf, imageOf, nameOf, restartsOf, uidOf } from '../support/pods.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

const gatesOf = (pod: {
  readonly spec?: { readonly readinessGates?: readonly { readonly conditionType: string }[] | undefined } | undefined;
}): string[] => (pod.spec?.readinessGates ?? []).map((gate) => gate.conditionType).sort();
const BOTH = ['InPlaceUpdateReady', 'KruisePodReady'];

async function rollOut(namespace: string, patch: Record<string, unknown>, description: string): Promise<void> {
  await client.patch(cloneSetResource, { namespace, name: 'web' }, { type: 'merge', body: { spec: patch } });
  await waitForStatus(client, { namespace, name: 'web', description }, rolledOut);
}

const image = (tag: string): Record<string, unknown> => ({
  template: { spec: { containers: [{ name: 'main', image: `nginx:${tag}` }] } },
});

describe('CloneSet readiness gates with --cloneset-recreate-without-readiness-gates', () => {
  it('ReCreate pods carry no gate and cost one create each; InPlaceIfPossible then recreates them (never in place without the gate), and updates the new gated pods in place', async () => {
    const writes = new PodWriteCounter();
    await withController(
      'gates-recreate',
      async (namespace) => {
        await createCloneSet(client, namespace, webCloneSet(3, { updateStrategy: { type: 'ReCreate' } }));
        await waitForStatus(client, { namespace, name: 'web', description: 'three ready pods' }, settled);
        const gateless = await activePods(client, namespace, 'app=web');
        expect(gateless.map(gatesOf)).toEqual([[], [], []]);
        expect(gateless.every((pod) => conditionOf(pod, 'Ready')?.status === 'True')).toBe(true);
        // Ready with the create alone: no status write of ours.
        expect(writes.writes.map((write) => `${write.verb} ${write.subresource}`.trim())).toEqual([
          'create',
          'create',
          'create',
        ]);
        expect(writes.failed).toEqual([]);

        // A gate-less pod could not leave Service endpoints before its container restarts: recreated.
        let restartedInPlace = false;
        const observer = observePods(kubeConfig, { namespace, labelSelector: 'app=web' }, (pods) => {
          restartedInPlace ||= pods.some((pod) => gatesOf(pod).length === 0 && restartsOf(pod) > 0);
        });
        await observer.synced;
        try {
          await rollOut(
            namespace,
            { updateStrategy: { type: 'InPlaceIfPossible' }, ...image('1.27') },
            'gate-less pods replaced',
          );
        } finally {
          observer.stop();
        }
        const gated = await activePods(client, namespace, 'app=web');
        expect(restartedInPlace).toBe(false);
        expect(gated.map(uidOf).filter((uid) => gateless.map(uidOf).includes(uid))).toEqual([]);
        expect(gated.map(gatesOf)).toEqual([BOTH, BOTH, BOTH]);
        expect(gated.map(imageOf)).toEqual(['nginx:1.27', 'nginx:1.27', 'nginx:1.27']);
        expect(
          gated.map((pod) => [
            conditionOf(pod, 'InPlaceUpdateReady')?.status,
            conditionOf(pod, 'KruisePodReady')?.status,
            conditionOf(pod, 'Ready')?.status,
          ]),
        ).toEqual([
          ['True', 'True', 'True'],
          ['True', 'True', 'True'],
          ['True', 'True', 'True'],
        ]);

        // The pods made under InPlaceIfPossible have the gate: the next change is in place.
        await rollOut(namespace, image('1.28'), 'updated in place');
        const updated = await activePods(client, namespace, 'app=web');
        expect(updated.map(uidOf)).toEqual(gated.map(uidOf));
        expect(updated.map(imageOf)).toEqual(['nginx:1.28', 'nginx:1.28', 'nginx:1.28']);
        expect(updated.map(restartsOf)).toEqual([1, 1, 1]);
      },
      { reCreateWithoutReadinessGates: true, requestObservers: [writes] },
    );
  });

  it('InPlaceOnly never recreates: gate-less pods are updated in place, as OpenKruise updates pods without the gate', async () => {
    await withController(
      'gates-inplaceonly',
      async (namespace) => {
        await createCloneSet(client, namespace, webCloneSet(2));
        await waitForStatus(client, { namespace, name: 'web', description: 'two ready pods' }, settled);
        const before = await activePods(client, namespace, 'app=web');
        expect(before.map(gatesOf)).toEqual([[], []]);

        await rollOut(namespace, { updateStrategy: { type: 'InPlaceOnly' }, ...image('1.27') }, 'updated in place');
        const after = await activePods(client, namespace, 'app=web');
        expect(after.map(uidOf)).toEqual(before.map(uidOf));
        expect(after.map(imageOf)).toEqual(['nginx:1.27', 'nginx:1.27']);
        expect(after.map(restartsOf)).toEqual([1, 1]);
      },
      { reCreateWithoutReadinessGates: true },
    );
  });

  it('ReCreate with a preDelete hook that marks pods not ready: pods carry KruisePodReady only, and it turns False before deletion', async () => {
    await withController(
      'gates-predelete',
      async (namespace) => {
        const hook = { labelsHandler: { 'example.io/hold': 'true' }, markPodNotReady: true };
        const manifest: CloneSetManifest = webCloneSet(2, {
          updateStrategy: { type: 'ReCreate' },
          lifecycle: { preDelete: hook },
        });
        await createCloneSet(client, namespace, {
          ...manifest,
          spec: {
            ...manifest.spec,
            template: { ...manifest.spec.template, metadata: { labels: { app: 'web', 'example.io/hold': 'true' } } },
          },
        });
        await waitForStatus(client, { namespace, name: 'web', description: 'two ready pods' }, settled);
        const pods = await activePods(client, namespace, 'app=web');
        expect(pods.map(gatesOf)).toEqual([['KruisePodReady'], ['KruisePodReady']]);

        await client.patch(
          cloneSetResource,
          { namespace, name: 'web' },
          { type: 'merge', body: { spec: { replicas: 1 } } },
        );
        const held = await waitFor(
          async () => {
            const current = await activePods(client, namespace, 'app=web');
            return current.find(
              (pod) => pod.metadata?.labels?.['lifecycle.apps.kruise.io/state'] === 'PreparingDelete',
            );
          },
          { description: 'a pod held in PreparingDelete' },
        );
        expect(conditionOf(held, 'KruisePodReady')?.status).toBe('False');
        const unready = await waitFor(
          async () => {
            const current = (await activePods(client, namespace, 'app=web')).find(
              (pod) => nameOf(pod) === nameOf(held),
            );
            return current !== undefined && conditionOf(current, 'Ready')?.status === 'False' ? current : undefined;
          },
          { description: 'the held pod not Ready' },
        );
        expect(nameOf(unready)).toBe(nameOf(held));
      },
      { reCreateWithoutReadinessGates: true },
    );
  });
});
