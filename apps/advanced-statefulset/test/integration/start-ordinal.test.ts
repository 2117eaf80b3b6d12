/**
 * ordinals.start with gate StatefulSetStartOrdinal: the set runs ordinals from `start`; without the
 * gate the field is ignored (ordinals from 0), as in OpenKruise. Moving the start on a running set
 * (OpenKruise's e2e "Setting", "Increasing", "Decreasing", "Removing .start.ordinal",
 * test/e2e/apps/v1beta1/statefulset.go) replaces the pods outside the new window as OpenKruise does
 * under OrderedReady: the new ordinals are created lowest first, each after the lower ones are Ready,
 * and only then are the old pods deleted, highest first.
 */
import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { nameOf, uidOf } from '@kruise-ts/workload/testing';
import { observeObjects, testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { statefulSetResource } from '../../src/index.ts';
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

async function podNames(namespace: string): Promise<string[]> {
  return (await client.list(podResource, { namespace, labelSelector: 'app=db' })).items.map(nameOf).sort();
}

async function livePods(namespace: string): Promise<Map<string, string>> {
  const pods = (await client.list(podResource, { namespace, labelSelector: 'app=db' })).items.filter(
    (pod) => pod.metadata?.deletionTimestamp === undefined,
  );
  return new Map(pods.map((pod) => [nameOf(pod), uidOf(pod)]));
}

function ordinalOf(name: string): number {
  return Number(name.split('-').pop());
}

function isReady(pod: DeepReadonly<Pod>): boolean {
  return (
    pod.metadata?.deletionTimestamp === undefined &&
    pod.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') === true
  );
}

/** What the pods went through while the window moved: creations and deletions in order, and every step out of OpenKruise's order. */
interface MoveRecord {
  readonly created: string[];
  readonly deleted: string[];
  readonly violations: string[];
}

/**
 * Checks every pod event against OrderedReady's order for a move to `window`: a pod appears only
 * when the window's lower ordinals exist and are Ready; an old pod starts terminating only when the
 * whole window is Ready.
 */
function moveChecker(
  window: readonly string[],
  before: ReadonlySet<string>,
): { record: MoveRecord; onChange: (pods: readonly DeepReadonly<Pod>[]) => void } {
  const record: MoveRecord = { created: [], deleted: [], violations: [] };
  const onChange = (pods: readonly DeepReadonly<Pod>[]): void => {
    const byName = new Map(pods.map((pod) => [nameOf(pod), pod]));
    const readyIn = (names: readonly string[]): boolean =>
      names.every((name) => byName.has(name) && isReady(byName.get(name) as DeepReadonly<Pod>));
    for (const [name, pod] of byName) {
      if (!before.has(name) && !record.created.includes(name)) {
        record.created.push(name);
        if (!readyIn(window.filter((other) => ordinalOf(other) < ordinalOf(name)))) {
          record.violations.push(`${name} appeared before the lower ordinals of the window were Ready`);
        }
      }
      if (
        before.has(name) &&
        !window.includes(name) &&
        pod.metadata?.deletionTimestamp !== undefined &&
        !record.deleted.includes(name)
      ) {
        record.deleted.push(name);
        if (!readyIn(window)) {
          record.violations.push(`${name} started terminating before every pod of the window was Ready`);
        }
      }
    }
    for (const name of before) {
      if (!byName.has(name) && !window.includes(name) && !record.deleted.includes(name)) {
        record.deleted.push(name);
        record.violations.push(`${name} went without a deletionTimestamp first`);
      }
    }
  };
  return { record, onChange };
}

describe('Advanced StatefulSet ordinals.start', () => {
  it.each([
    { gates: 'StatefulSetStartOrdinal=true', pods: ['db-3', 'db-4'] },
    { gates: '', pods: ['db-0', 'db-1'] },
  ])('with --feature-gates=$gates runs $pods', async ({ gates, pods }) => {
    await using ns = await statefulSetNamespace(kubeConfig, 'asts-start');
    const controller = startController({ kubeConfig, namespace: ns.name, featureGates: gates });
    try {
      await createStatefulSet(
        client,
        ns.name,
        dbStatefulSet(2, { podManagementPolicy: 'Parallel', ordinals: { start: 3 } }),
      );
      await waitForSet(client, { namespace: ns.name, name: 'db', description: '2 ready pods' }, settled);
      expect(await podNames(ns.name)).toEqual(pods);
    } finally {
      await controller.stop();
    }
  });

  // OpenKruise e2e statefulset.go:2513, :2548, :2583, :2618 (OrderedReady, the e2e's default).
  it.each([
    {
      case: 'Setting',
      start: undefined,
      then: { replicas: 3, ordinals: { start: 2 } },
      before: ['db-0', 'db-1'],
      after: ['db-2', 'db-3', 'db-4'],
      deleted: ['db-1', 'db-0'],
    },
    {
      case: 'Increasing',
      start: 2,
      then: { ordinals: { start: 4 } },
      before: ['db-2', 'db-3'],
      after: ['db-4', 'db-5'],
      deleted: ['db-3', 'db-2'],
    },
    {
      case: 'Decreasing',
      start: 3,
      then: { ordinals: { start: 2 } },
      before: ['db-3', 'db-4'],
      after: ['db-2', 'db-3'],
      deleted: ['db-4'],
    },
    {
      case: 'Removing',
      start: 3,
      then: { ordinals: null },
      before: ['db-3', 'db-4'],
      after: ['db-0', 'db-1'],
      deleted: ['db-4', 'db-3'],
    },
  ])(
    '$case .start.ordinal: $before become $after, new pods first, old ones deleted highest first',
    async ({ start, then, before, after, deleted }) => {
      await using ns = await statefulSetNamespace(kubeConfig, 'asts-start-move');
      const controller = startController({
        kubeConfig,
        namespace: ns.name,
        featureGates: 'StatefulSetStartOrdinal=true',
      });
      try {
        await createStatefulSet(client, ns.name, dbStatefulSet(2, start === undefined ? {} : { ordinals: { start } }));
        await waitForSet(client, { namespace: ns.name, name: 'db', description: '2 ready pods' }, settled);
        const kept = await livePods(ns.name);
        expect([...kept.keys()].sort()).toEqual(before);

        const checker = moveChecker(after, new Set(before));
        const observer = observeObjects(
          kubeConfig,
          { resource: podResource, namespace: ns.name, labelSelector: 'app=db' },
          checker.onChange,
        );
        await observer.synced;
        await client.patch(
          statefulSetResource,
          { namespace: ns.name, name: 'db' },
          { type: 'merge', body: { spec: then } },
        );
        const set = await waitForSet(
          client,
          { namespace: ns.name, name: 'db', description: `pods ${after.join(', ')} ready` },
          settled,
        );
        await expect.poll(async () => [...(await livePods(ns.name)).keys()].sort(), { timeout: 30_000 }).toEqual(after);
        // The list above reads the API server; the watch behind the checker may still be behind it on a
        // loaded machine (a full run once stopped it before the last deletion arrived).
        await expect.poll(() => checker.record.deleted.length, { timeout: 30_000 }).toBe(deleted.length);
        observer.stop();

        expect(checker.record.violations).toEqual([]);
        expect(checker.record.created).toEqual(after.filter((name) => !before.includes(name)));
        expect(checker.record.deleted).toEqual(deleted);
        expect(set.status?.conditions?.some((condition) => condition.type === 'InvalidSpec') ?? false).toBe(false);
        // A pod in both windows stays the same pod.
        const now = await livePods(ns.name);
        for (const name of before.filter((name) => after.includes(name))) {
          expect(now.get(name)).toBe(kept.get(name));
        }
      } finally {
        await controller.stop();
      }
    },
  );
});
