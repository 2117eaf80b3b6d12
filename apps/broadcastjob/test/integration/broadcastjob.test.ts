/**
 * The BroadcastJob controller on the real control plane, on fake nodes of each test's own (kwok; the
 * scheduler binds the pods; the simulated kubelet runs them to completion): one pod on each eligible
 * node (not the cordoned one, not the tainted one unless tolerated), completion with its time and
 * condition, parallelism (a number and a percentage, every pod event watched), a node added to a
 * Never job, and a restart of the controller mid-run that creates no second pod on any node.
 */
import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { eventResource } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { observeObjects, testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { nodeResource, podResource } from '@kruise-ts/workload';

import {
  createJob,
  jobBody,
  jobPods,
  pinnedNode,
  testNodes,
  waitForJob,
  withController,
  withRestartableController,
} from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const RUN_LONG = { 'sim.kruise-ts.io/run-ms': '3000' };

const isRunning = (pod: DeepReadonly<Pod>): boolean =>
  pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && pod.metadata?.deletionTimestamp === undefined;
const completed = (job: { status?: { phase?: string | undefined } | undefined }): boolean =>
  job.status?.phase === 'completed';

describe('BroadcastJob', () => {
  it('runs one pod on each eligible node (not cordoned, not tainted unless tolerated) and completes', async () => {
    await withController('bcj-eligible', async (namespace) => {
      await using nodes = await testNodes(namespace, 4, (node, index) => {
        if (index === 1) {
          node.spec = Object.assign(node.spec ?? {}, { unschedulable: true });
        }
        if (index === 2) {
          node.spec = Object.assign(node.spec ?? {}, {
            taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
          });
        }
        return node;
      });
      const [free0, cordoned, tainted, free3] = nodes.names;
      await createJob(client, jobBody(namespace, 'plain'));
      const done = await waitForJob(client, { namespace, name: 'plain', description: 'the job completed' }, completed);
      expect(done.status).toMatchObject({ desired: 2, succeeded: 2, failed: 0, active: 0, phase: 'completed' });
      expect(done.status?.completionTime).toBeDefined();
      expect(done.status?.conditions?.find((condition) => condition.type === 'Complete')).toMatchObject({
        status: 'True',
        reason: 'Complete',
        message: 'Job completed, 2 pods succeeded, 0 pods failed',
      });
      const pods = await jobPods(client, namespace, 'plain');
      expect(pods.map((pod) => pod.spec?.nodeName).sort()).toEqual([free0, free3].sort());
      expect(pods.map(pinnedNode).sort()).toEqual([free0, free3].sort());
      expect(pods.every((pod) => pod.status?.phase === 'Succeeded')).toBe(true);

      const toleration = jobBody(namespace, 'tolerating');
      toleration.spec.template.spec = {
        ...toleration.spec.template.spec,
        containers: toleration.spec.template.spec?.containers ?? [],
        tolerations: [
          ...(toleration.spec.template.spec?.tolerations ?? []),
          { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
        ],
      };
      await createJob(client, toleration);
      const tolerated = await waitForJob(
        client,
        { namespace, name: 'tolerating', description: 'the tolerating job completed' },
        completed,
      );
      expect(tolerated.status).toMatchObject({ desired: 3, succeeded: 3 });
      expect((await jobPods(client, namespace, 'tolerating')).map((pod) => pod.spec?.nodeName).sort()).toEqual(
        [free0, tainted, free3].sort(),
      );
      expect(cordoned).toBeDefined();
    });
  });

  it('runs parallelism pods at a time: 1 one after another, 50% of 4 two at a time', async () => {
    await withController('bcj-parallel', async (namespace) => {
      await using nodes = await testNodes(namespace, 4);
      expect(nodes.names).toHaveLength(4);
      for (const [name, parallelism, most] of [
        ['one', 1, 1],
        ['half', '50%', 2],
      ] as const) {
        let worst = 0;
        const observer = observeObjects(
          kubeConfig,
          { resource: podResource, namespace, labelSelector: `broadcastjob-name=${name}` },
          (pods) => {
            worst = Math.max(worst, pods.filter(isRunning).length);
          },
        );
        await observer.synced;
        await createJob(
          client,
          jobBody(namespace, name, { spec: { parallelism }, podAnnotations: { 'sim.kruise-ts.io/run-ms': '1000' } }),
        );
        const done = await waitForJob(client, { namespace, name, description: `${name}: completed` }, completed);
        observer.stop();
        expect(done.status).toMatchObject({ desired: 4, succeeded: 4 });
        expect(worst).toBe(most);
      }
    });
  });

  it('places a pod on a node that joins a Never job, and never completes it', async () => {
    await withController('bcj-never', async (namespace) => {
      await using first = await testNodes(namespace, 1);
      expect(first.names).toHaveLength(1);
      await createJob(client, jobBody(namespace, 'forever', { spec: { completionPolicy: { type: 'Never' } } }));
      await waitForJob(
        client,
        { namespace, name: 'forever', description: 'the first pod succeeded' },
        (job) => job.status?.succeeded === 1,
      );
      await using second = await testNodes(namespace, 1);
      const onNew = await waitFor(
        async () => (await jobPods(client, namespace, 'forever')).find((pod) => pinnedNode(pod) === second.names[0]),
        { description: 'a pod on the node that joined', timeoutMs: 30_000 },
      );
      expect(onNew).toBeDefined();
      const job = await waitForJob(
        client,
        { namespace, name: 'forever', description: 'both pods succeeded' },
        (current) => current.status?.succeeded === 2,
      );
      expect(job.status?.phase).toBe('running');
      expect(job.status?.conditions ?? []).toEqual([]);
    });
  });

  it('creates no second pod on any node when the controller restarts mid-run', async () => {
    await withRestartableController('bcj-restart', async (namespace, controller) => {
      await using nodes = await testNodes(namespace, 3);
      await createJob(client, jobBody(namespace, 'restart', { spec: { parallelism: 2 }, podAnnotations: RUN_LONG }));
      await waitFor(async () => ((await jobPods(client, namespace, 'restart')).length >= 2 ? true : undefined), {
        description: 'two pods created',
      });
      // A new controller knows nothing of the old one's expectations: it must count the pods it finds.
      await controller.restart();
      const done = await waitForJob(
        client,
        { namespace, name: 'restart', description: 'completed after the restart' },
        completed,
      );
      expect(done.status).toMatchObject({ desired: 3, succeeded: 3 });
      const pods = await jobPods(client, namespace, 'restart');
      expect(pods.map(pinnedNode).sort()).toEqual([...nodes.names].sort());
      const duplicates = (await client.list(eventResource, { namespace })).items.filter(
        (event) => event.reason === 'DuplicatePodCreatedOnSameNode',
      );
      expect(duplicates).toEqual([]);
    });
  });

  it('says why when no node fits the template, and does not hang silently', async () => {
    await withController('bcj-nofit', async (namespace) => {
      await using nodes = await testNodes(namespace, 2, (node) => {
        node.spec = Object.assign(node.spec ?? {}, {
          taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
        });
        return node;
      });
      expect(nodes.names).toHaveLength(2);
      await createJob(client, jobBody(namespace, 'nowhere'));
      const job = await waitForJob(
        client,
        { namespace, name: 'nowhere', description: 'the NoEligibleNode condition' },
        (current) => (current.status?.conditions ?? []).some((condition) => condition.type === 'NoEligibleNode'),
      );
      const condition = job.status?.conditions?.find((candidate) => candidate.type === 'NoEligibleNode');
      expect(condition?.message).toContain('2 node(s)');
      expect(condition?.message).toContain('dedicated');
      const events = await waitFor(
        async () => {
          const list = (await client.list(eventResource, { namespace })).items.filter(
            (event) => event.reason === 'NoEligibleNode',
          );
          return list.length > 0 ? list : undefined;
        },
        { description: 'the NoEligibleNode Warning' },
      );
      expect(events[0]?.type).toBe('Warning');
      expect(await jobPods(client, namespace, 'nowhere')).toEqual([]);
    });
  });

  it('replaces a pod deleted by hand on its node (never two at once) and forgets a node that leaves mid-run', async () => {
    await withController('bcj-churn', async (namespace) => {
      await using nodes = await testNodes(namespace, 3);
      const [kept, leaving] = nodes.names;
      let twoOnOneNode: string | undefined;
      const observer = observeObjects(
        kubeConfig,
        { resource: podResource, namespace, labelSelector: 'broadcastjob-name=churn' },
        (pods) => {
          const running = pods.filter(isRunning).map((pod) => pinnedNode(pod) ?? '');
          twoOnOneNode ??= running.find((node, index) => running.indexOf(node) !== index);
        },
      );
      await observer.synced;
      await createJob(client, jobBody(namespace, 'churn', { podAnnotations: { 'sim.kruise-ts.io/run-ms': '4000' } }));
      const pods = await waitFor(
        async () => {
          const list = (await jobPods(client, namespace, 'churn')).filter((pod) => pod.status?.phase === 'Running');
          return list.length === 3 ? list : undefined;
        },
        { description: 'three running pods' },
      );
      const onKept = pods.find((pod) => pinnedNode(pod) === kept);
      await client.delete(podResource, { namespace, name: onKept?.metadata?.name ?? '' });
      await client.delete(nodeResource, { name: leaving ?? '' });
      const done = await waitForJob(
        client,
        { namespace, name: 'churn', description: 'completed without the node that left' },
        completed,
      );
      observer.stop();
      expect(done.status).toMatchObject({ desired: 2, succeeded: 2 });
      expect(twoOnOneNode).toBeUndefined();
      const after = await jobPods(client, namespace, 'churn');
      expect(after.filter((pod) => pinnedNode(pod) === kept && pod.status?.phase === 'Succeeded')).toHaveLength(1);
      expect(after.some((pod) => pinnedNode(pod) === leaving && isRunning(pod))).toBe(false);
    });
  });
});
