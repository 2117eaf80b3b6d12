/**
 * The inPlaceUpdate lifecycle hook (spec scenario C) with the seed's finalizer example, and a small
 * "user controller" in the test doing what a traffic controller would: hold new pods until it has
 * registered them (add the finalizer), let a pod go for its update once drained (remove it), and take
 * it back once updated (add it again).
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import {
  activePods,
  createCloneSet,
  installCloneSetCrd,
  observePods,
  seedExample,
  rolledOut,
  settled,
  startController,
  testClient,
  waitForStatus,
} from '../support/harness.ts';
import { conditionOf, imageOf, nameOf, uidOf } from '../support/pods.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const BLOCKER = 'example.io/unready-blocker';

const stateOf = (pod: DeepReadonly<Pod>): string => pod.metadata?.labels?.['lifecycle.apps.kruise.io/state'] ?? '';

/** Adds the finalizer to PreparingNormal and Updated pods, removes it from PreparingUpdate and PreparingDelete pods. */
function startUserController(namespace: string): { stop: () => Promise<void> } {
  const stop = new AbortController();
  const loop = (async () => {
    while (!stop.signal.aborted) {
      for (const pod of await activePods(client, namespace, 'app=sample').catch(() => [])) {
        const has = (pod.metadata?.finalizers ?? []).includes(BLOCKER);
        const state = stateOf(pod);
        const want =
          state === 'PreparingNormal' || state === 'Updated'
            ? true
            : state === 'PreparingUpdate' || state === 'PreparingDelete'
              ? false
              : has;
        if (want !== has) {
          const finalizers = want
            ? [...(pod.metadata?.finalizers ?? []), BLOCKER]
            : (pod.metadata?.finalizers ?? []).filter((f) => f !== BLOCKER);
          await client
            .patch(
              podResource,
              { namespace, name: nameOf(pod) },
              { type: 'merge', body: { metadata: { finalizers, resourceVersion: pod.metadata?.resourceVersion } } },
            )
            .catch(() => undefined);
        }
      }
      await sleep(100);
    }
  })();
  return {
    stop: async () => {
      stop.abort();
      await loop;
    },
  };
}

describe('CloneSet inPlaceUpdate lifecycle hook', () => {
  it.each([
    { example: '003-L822.yaml', markPodNotReady: false },
    { example: '003-L822.yaml', markPodNotReady: true },
  ])(
    '$example with markPodNotReady $markPodNotReady: Normal → PreparingUpdate → Updating → Updated → Normal',
    async ({ example, markPodNotReady }) => {
      await installCloneSetCrd(kubeConfig);
      await using ns = await createTestNamespace(kubeConfig, `lifecycle-inplace-${String(markPodNotReady)}`);
      const controller = startController({ kubeConfig, namespace: ns.name });
      const user = startUserController(ns.name);
      try {
        const sample = await seedExample('003-L013.yaml');
        const hooks = (await seedExample(example)).spec.lifecycle;
        const lifecycle = markPodNotReady
          ? { ...hooks, inPlaceUpdate: { ...hooks?.inPlaceUpdate, markPodNotReady: true } }
          : hooks;
        await createCloneSet(client, ns.name, {
          ...sample,
          spec: {
            ...sample.spec,
            replicas: 2,
            lifecycle,
            updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
          },
        });
        await waitForStatus(client, { namespace: ns.name, name: 'sample', description: 'two available pods' }, settled);
        const uids = (await activePods(client, ns.name, 'app=sample')).map(uidOf).sort();
        expect(
          (await activePods(client, ns.name, 'app=sample')).every(
            (pod) => pod.metadata?.finalizers?.includes(BLOCKER) === true,
          ),
        ).toBe(true);

        const states = new Map<string, string[]>();
        let kruiseNotReadyWhilePreparing = false;
        const observer = observePods(kubeConfig, { namespace: ns.name, labelSelector: 'app=sample' }, (pods) => {
          for (const pod of pods) {
            const seen = states.get(nameOf(pod)) ?? [];
            if (seen.at(-1) !== stateOf(pod)) {
              states.set(nameOf(pod), [...seen, stateOf(pod)]);
            }
            if (stateOf(pod) === 'PreparingUpdate' && conditionOf(pod, 'KruisePodReady')?.status === 'False') {
              kruiseNotReadyWhilePreparing = true;
            }
          }
        });
        await observer.synced;
        try {
          await client.patch(
            cloneSetResource,
            { namespace: ns.name, name: 'sample' },
            {
              type: 'json',
              body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:mainline' }],
            },
          );
          await waitForStatus(
            client,
            { namespace: ns.name, name: 'sample', description: 'updated and Normal again', timeoutMs: 90_000 },
            rolledOut,
          );
        } finally {
          observer.stop();
        }
        const pods = await activePods(client, ns.name, 'app=sample');
        expect(pods.map(uidOf).sort()).toEqual(uids);
        expect(pods.map(imageOf)).toEqual(['nginx:mainline', 'nginx:mainline']);
        expect(pods.map(stateOf)).toEqual(['Normal', 'Normal']);
        for (const sequence of states.values()) {
          expect(sequence).toEqual(['Normal', 'PreparingUpdate', 'Updating', 'Updated', 'Normal']);
        }
        expect(kruiseNotReadyWhilePreparing).toBe(markPodNotReady);
        expect(pods.every((pod) => conditionOf(pod, 'KruisePodReady')?.status === 'True')).toBe(true);
      } finally {
        await user.stop();
        await controller.stop();
        // Let the namespace go: the blocker finalizers would hold the pods.
        for (const pod of await activePods(client, ns.name, 'app=sample')) {
          await client
            .patch(
              podResource,
              { namespace: ns.name, name: nameOf(pod) },
              { type: 'merge', body: { metadata: { finalizers: null } } },
            )
            .catch(() => undefined);
        }
      }
    },
  );
});
