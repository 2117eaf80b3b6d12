/**
 * The order in which pods are updated on real pods, one pod at a time (maxUnavailable 1, in place):
 * with a budget of one, a pod is chosen only after the previous one is available again, so the order
 * in which the pods' images change (followed through a watch) is the order the controller chose them
 * in. The order of pods chosen together in one reconcile (a larger budget) is written concurrently and
 * is pinned down by src/sync/update.test.ts instead. Every run checks that all pods were updated.
 */
import { describe, expect, it } from 'vitest';

import { CLONESET_INSTANCE_ID_LABEL } from '@kruise-ts/api';
import type { CloneSetInput } from '@kruise-ts/api';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import {
  activePods,
  createCloneSet,
  installCloneSetCrd,
  observePods,
  rolledOut,
  settled,
  startController,
  testClient,
  waitForStatus,
  webCloneSet,
} from '../support/harness.ts';
import { imageOf, nameOf } from '../support/pods.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

type UpdateStrategy = CloneSetInput['spec']['updateStrategy'];

/** What {@link updateOrder} saw: the pods' labels in the order their images changed. */
interface ChosenPods {
  readonly order: Record<string, string>[];
  /** The same order by name, for the message of a failed check. */
  readonly batches: string;
}

/**
 * Creates `replicas` pods, labels them with `labelsFor(index)` (index in name order), rolls out a new
 * image one pod at a time and returns the labels of the pods in the order their images changed.
 */
async function updateOrder(
  prefix: string,
  options: { replicas: number; strategy: UpdateStrategy; labelsFor: (index: number) => Record<string, string> },
): Promise<ChosenPods> {
  await installCloneSetCrd(kubeConfig);
  await using ns = await createTestNamespace(kubeConfig, prefix);
  const controller = startController({ kubeConfig, namespace: ns.name });
  try {
    await createCloneSet(
      client,
      ns.name,
      webCloneSet(options.replicas, {
        updateStrategy: { type: 'InPlaceIfPossible', ...options.strategy, maxUnavailable: 1 },
      }),
    );
    await waitForStatus(client, { namespace: ns.name, name: 'web', description: 'pods ready' }, settled);
    const pods = await activePods(client, ns.name, 'app=web');
    const labelsByName = new Map<string, Record<string, string>>();
    for (const [index, pod] of pods.entries()) {
      const labels = options.labelsFor(index);
      labelsByName.set(nameOf(pod), labels);
      if (Object.keys(labels).length > 0) {
        await client.patch(
          podResource,
          { namespace: ns.name, name: nameOf(pod) },
          { type: 'merge', body: { metadata: { labels } } },
        );
      }
    }
    // The controller must judge the pods by these labels: its pod cache and the CloneSet's are separate
    // watches, so without this wait a loaded machine can deliver the new image first.
    const labelled = [...labelsByName.values()].filter((labels) => Object.keys(labels).length > 0).length;
    const cache = controller.manager.informers
      .informerFor({ resource: podResource, labelSelector: CLONESET_INSTANCE_ID_LABEL })
      .lister();
    await waitFor(
      () =>
        Promise.resolve(
          cache.list().filter((pod) => hasAllLabelsOf(pod, labelsByName.get(nameOf(pod)))).length === labelled ||
            undefined,
        ),
      {
        description: "the controller's cache to show the pods' labels",
      },
    );
    const order: string[] = [];
    const observer = observePods(kubeConfig, { namespace: ns.name, labelSelector: 'app=web' }, (current) => {
      for (const pod of current) {
        if (imageOf(pod) === 'nginx:1.27' && !order.includes(nameOf(pod))) {
          order.push(nameOf(pod));
        }
      }
    });
    await observer.synced;
    try {
      await client.patch(
        cloneSetResource,
        { namespace: ns.name, name: 'web' },
        {
          type: 'json',
          body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.27' }],
        },
      );
      await waitForStatus(
        client,
        { namespace: ns.name, name: 'web', description: 'all updated', timeoutMs: 120_000 },
        rolledOut,
      );
    } finally {
      observer.stop();
    }
    expect(order).toHaveLength(options.replicas);
    const labelsOf = (name: string): Record<string, string> => labelsByName.get(name) ?? {};
    return { order: order.map(labelsOf), batches: JSON.stringify(order.map((name) => [name, labelsOf(name)])) };
  } finally {
    await controller.stop();
  }
}

/** The pod carries every label of `labels` (false for none). */
function hasAllLabelsOf(
  pod: { metadata?: { labels?: Record<string, string> | undefined } | undefined },
  labels: Record<string, string> | undefined,
): boolean {
  const entries = Object.entries(labels ?? {});
  return entries.length > 0 && entries.every(([key, value]) => pod.metadata?.labels?.[key] === value);
}

describe('CloneSet update order', () => {
  it('weightPriority (the seed example): test-key=foo (50) first, then bar (30), then the rest', async () => {
    const strategy: UpdateStrategy = {
      priorityStrategy: {
        weightPriority: [
          { weight: 50, matchSelector: { matchLabels: { 'test-key': 'foo' } } },
          { weight: 30, matchSelector: { matchLabels: { 'test-key': 'bar' } } },
        ],
      },
    };
    const labels = ['bar', '', 'foo', ''];
    const { order, batches } = await updateOrder('order-weight', {
      replicas: 4,
      strategy,
      labelsFor: (i) => (labels[i] === '' ? {} : { 'test-key': labels[i] ?? '' }),
    });
    expect(
      order.map((l) => l['test-key'] ?? '-'),
      batches,
    ).toEqual(['foo', 'bar', '-', '-']);
  });

  it('orderPriority (the seed example): the integer part of the value, higher first; pods without the key go first, as in OpenKruise', async () => {
    const strategy: UpdateStrategy = { priorityStrategy: { orderPriority: [{ orderedKey: 'some-label-key' }] } };
    const values = ['sts-1', 'sts-10', '', 'sts-5'];
    const { order, batches } = await updateOrder('order-ordered', {
      replicas: 4,
      strategy,
      labelsFor: (i) => (values[i] === '' ? {} : { 'some-label-key': values[i] ?? '' }),
    });
    expect(
      order.map((l) => l['some-label-key'] ?? '-'),
      batches,
    ).toEqual(['-', 'sts-10', 'sts-5', 'sts-1']);
  });

  it('scatterStrategy one pod at a time: the order is computed again over the remaining pods each time, as in OpenKruise', async () => {
    // After the first labelled pod, 2 labelled and 7 other pods remain against totals of 3 and 7:
    // OpenKruise's grouping then puts 3 other pods first, so the second labelled pod comes 5th. With
    // one labelled pod left, scattering leaves the order alone (as upstream), so where the third one
    // comes is the ActivePods order of the pods left: more recently Ready first, which the simulated
    // kubelet's timing decides (a CI run chose it 9th, one pod per reconcile, instead of the usual 10th).
    const strategy: UpdateStrategy = { scatterStrategy: [{ key: 'foo', value: 'bar' }] };
    const { order, batches } = await updateOrder('order-scatter-steps', {
      replicas: 10,
      strategy,
      labelsFor: (i) => ([2, 3, 7].includes(i) ? { foo: 'bar' } : {}),
    });
    const positions = order.flatMap((l, index) => (l['foo'] === 'bar' ? [index + 1] : []));
    expect(positions.slice(0, 2), batches).toEqual([1, 5]);
    expect(positions[2], batches).toBeGreaterThan(5);
  });
});
