/**
 * A controller restart in the middle of an OrderedReady scale-out: the new controller creates no
 * extra pod and skips no ordinal (every pod name appears once, with one UID).
 */
import { describe, expect, it } from 'vitest';

import { observeObjects, testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import {
  createStatefulSet,
  dbStatefulSet,
  settled,
  startController,
  statefulSetNamespace,
  waitForSet,
} from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

describe('Advanced StatefulSet controller restart', () => {
  it('creates no extra pod and skips no ordinal when it restarts during an ordered scale-out', async () => {
    await using ns = await statefulSetNamespace(kubeConfig, 'asts-restart');
    const uidsByName = new Map<string, Set<string>>();
    const observer = observeObjects(
      kubeConfig,
      { resource: podResource, namespace: ns.name, labelSelector: 'app=db' },
      (pods) => {
        for (const pod of pods) {
          const name = pod.metadata?.name ?? '';
          uidsByName.set(name, (uidsByName.get(name) ?? new Set()).add(pod.metadata?.uid ?? ''));
        }
      },
    );
    await observer.synced;
    const first = startController({ kubeConfig, namespace: ns.name });
    await createStatefulSet(client, ns.name, dbStatefulSet(5));
    await waitFor(
      async () =>
        (await client.list(podResource, { namespace: ns.name, labelSelector: 'app=db' })).items.length >= 2
          ? true
          : undefined,
      { description: 'two pods', timeoutMs: 30_000 },
    );
    await first.stop();
    const second = startController({ kubeConfig, namespace: ns.name });
    try {
      await waitForSet(client, { namespace: ns.name, name: 'db', description: '5 ready pods' }, settled);
    } finally {
      await second.stop();
      observer.stop();
    }
    expect([...uidsByName.keys()].sort()).toEqual(['db-0', 'db-1', 'db-2', 'db-3', 'db-4']);
    expect([...uidsByName.values()].map((uids) => uids.size)).toEqual([1, 1, 1, 1, 1]);
  });
});
