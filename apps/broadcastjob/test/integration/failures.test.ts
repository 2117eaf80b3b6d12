/**
 * How a BroadcastJob ends, on the real control plane (the simulated kubelet fails a pod when its
 * template asks, `sim.kruise-ts.io/outcome: fail` or `failures: N` for OnFailure pods): FailFast fails
 * the job, Continue completes it with the failures counted, Pause pauses it, `restartLimit` counts
 * restarts of OnFailure pods, `activeDeadlineSeconds` fails a job that runs too long and deletes its
 * running pods, `ttlSecondsAfterFinished` deletes the finished job and its pods; a template the API
 * server refuses (no validation webhook here) creates no pod and is reported, not failed.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { eventResource } from '@kruise-ts/controller-runtime';
import { observeObjects, testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { broadcastJobResource } from '../../src/index.ts';
import { createJob, jobBody, jobPods, testNodes, waitForJob, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const FAIL = { 'sim.kruise-ts.io/outcome': 'fail', 'sim.kruise-ts.io/run-ms': '300' };

/** The Events of a reason, once there is one (the recorder sends them in the background). */
async function eventsOf(
  namespace: string,
  reason: string,
): Promise<{ type?: string | undefined; message?: string | undefined }[]> {
  return waitFor(
    async () => {
      const events = (await client.list(eventResource, { namespace })).items.filter((event) => event.reason === reason);
      return events.length > 0 ? events : undefined;
    },
    { description: `a ${reason} Event` },
  );
}

describe('BroadcastJob failures and endings', () => {
  it('a template the API server refuses: no pod, a FailedCreate Warning and the FailedCreatePod condition naming the field; the job runs on', async () => {
    await withController('bcj-badtemplate', async (namespace) => {
      await using nodes = await testNodes(namespace, 2);
      expect(nodes.names).toHaveLength(2);
      const body = jobBody(namespace, 'bad');
      const [container] = body.spec.template.spec?.containers ?? [];
      const spec = {
        ...body.spec.template.spec,
        containers: [{ ...container, name: 'work', ports: [{ containerPort: 70000 }] }],
      };
      await createJob(client, { ...body, spec: { ...body.spec, template: { ...body.spec.template, spec } } });
      const job = await waitForJob(
        client,
        { namespace, name: 'bad', description: 'FailedCreatePod' },
        (current) => current.status?.conditions?.some((condition) => condition.type === 'FailedCreatePod') === true,
      );
      const condition = job.status?.conditions?.find((candidate) => candidate.type === 'FailedCreatePod');
      expect(condition).toMatchObject({ status: 'True', reason: 'InvalidTemplate' });
      expect(condition?.message).toContain(
        'BroadcastJob "bad" is invalid: spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000',
      );
      expect(job.status).toMatchObject({ phase: 'running', desired: 2, active: 0 });
      const [event] = await eventsOf(namespace, 'FailedCreate');
      expect(event).toMatchObject({ type: 'Warning', message: condition?.message });
      expect(await jobPods(client, namespace, 'bad')).toEqual([]);
    });
  });

  it('FailFast fails the job on a failed pod; Continue completes it with the failures counted', async () => {
    await withController('bcj-failfast', async (namespace) => {
      await using nodes = await testNodes(namespace, 2);
      expect(nodes.names).toHaveLength(2);
      await createJob(client, jobBody(namespace, 'fast', { podAnnotations: FAIL }));
      const failed = await waitForJob(
        client,
        { namespace, name: 'fast', description: 'failed' },
        (job) => job.status?.phase === 'failed',
      );
      expect(failed.status?.conditions?.find((condition) => condition.type === 'Failed')).toMatchObject({
        status: 'True',
        reason: 'Failed',
        message: 'failure policy is FailurePolicyTypeFailFast and failed pod is found',
      });
      expect(failed.status?.completionTime).toBeDefined();
      expect((await eventsOf(namespace, 'failed pod is found'))[0]?.type).toBe('Warning');

      await createJob(
        client,
        jobBody(namespace, 'onward', { spec: { failurePolicy: { type: 'Continue' } }, podAnnotations: FAIL }),
      );
      const done = await waitForJob(
        client,
        { namespace, name: 'onward', description: 'completed' },
        (job) => job.status?.phase === 'completed',
      );
      expect(done.status).toMatchObject({ desired: 2, succeeded: 0, failed: 2 });
      expect(done.status?.conditions?.find((condition) => condition.type === 'Complete')?.message).toBe(
        'Job completed, 0 pods succeeded, 2 pods failed',
      );
    });
  });

  it('Pause pauses the job on a failed pod and creates no more pods', async () => {
    await withController('bcj-pause', async (namespace) => {
      await using nodes = await testNodes(namespace, 2);
      expect(nodes.names).toHaveLength(2);
      await createJob(
        client,
        jobBody(namespace, 'halt', {
          spec: { parallelism: 1, failurePolicy: { type: 'Pause' } },
          podAnnotations: FAIL,
        }),
      );
      const paused = await waitForJob(
        client,
        { namespace, name: 'halt', description: 'paused' },
        (job) => job.status?.phase === 'paused',
      );
      expect(paused.status).toMatchObject({ failed: 1, desired: 2 });
      await sleep(1500);
      expect(await jobPods(client, namespace, 'halt')).toHaveLength(1);
      expect((await client.get(broadcastJobResource, { namespace, name: 'halt' })).status?.phase).toBe('paused');
      expect((await eventsOf(namespace, 'Paused'))[0]?.type).toBe('Warning');
    });
  });

  it('restartLimit counts the restarts of OnFailure pods', async () => {
    await withController('bcj-restarts', async (namespace) => {
      await using nodes = await testNodes(namespace, 1);
      expect(nodes.names).toHaveLength(1);
      const twice = {
        'sim.kruise-ts.io/failures': '2',
        'sim.kruise-ts.io/run-ms': '200',
        'sim.kruise-ts.io/restart-backoff-ms': '100',
      };
      await createJob(
        client,
        jobBody(namespace, 'within', {
          spec: { failurePolicy: { restartLimit: 2 } },
          podAnnotations: twice,
          restartPolicy: 'OnFailure',
        }),
      );
      const within = await waitForJob(
        client,
        { namespace, name: 'within', description: 'completed within the limit' },
        (job) => job.status?.phase !== undefined && job.status.phase !== 'running',
      );
      expect(within.status).toMatchObject({ phase: 'completed', succeeded: 1, failed: 0 });
      const [pod] = await jobPods(client, namespace, 'within');
      expect(pod?.status?.containerStatuses?.[0]?.restartCount).toBe(2);

      await createJob(
        client,
        jobBody(namespace, 'beyond', {
          spec: { failurePolicy: { restartLimit: 1 } },
          podAnnotations: twice,
          restartPolicy: 'OnFailure',
        }),
      );
      const beyond = await waitForJob(
        client,
        { namespace, name: 'beyond', description: 'failed beyond the limit' },
        (job) => job.status?.phase !== undefined && job.status.phase !== 'running',
      );
      expect(beyond.status).toMatchObject({ phase: 'failed', failed: 1 });
    });
  });

  it('activeDeadlineSeconds fails a job that runs too long and deletes its running pods', async () => {
    await withController('bcj-deadline', async (namespace) => {
      await using nodes = await testNodes(namespace, 2);
      expect(nodes.names).toHaveLength(2);
      await createJob(
        client,
        jobBody(namespace, 'slow', {
          spec: { completionPolicy: { activeDeadlineSeconds: 2 } },
          podAnnotations: { 'sim.kruise-ts.io/run-ms': '60000' },
        }),
      );
      const failed = await waitForJob(
        client,
        { namespace, name: 'slow', description: 'failed by the deadline' },
        (job) => job.status?.phase === 'failed',
      );
      expect(failed.status?.conditions?.find((condition) => condition.type === 'Failed')?.message).toBe(
        `Job ${namespace}/slow was active longer than specified deadline`,
      );
      expect(failed.status).toMatchObject({ active: 0, failed: 2 });
      await waitFor(async () => ((await jobPods(client, namespace, 'slow')).length === 0 ? true : undefined), {
        description: 'the running pods deleted',
      });
      expect((await eventsOf(namespace, 'DeadlineExceeded'))[0]?.type).toBe('Warning');
    });
  });

  it('ttlSecondsAfterFinished deletes the finished job and its pods', async () => {
    await withController('bcj-ttl', async (namespace) => {
      await using nodes = await testNodes(namespace, 1);
      expect(nodes.names).toHaveLength(1);
      // With a TTL of 1 s the completed job may be gone between two polls (it was, in CI): its phase is
      // read from every watch event instead, watched from before the job exists.
      const phases = new Set<string>();
      const observer = observeObjects(
        kubeConfig,
        { resource: broadcastJobResource, namespace, labelSelector: '' },
        (jobs) => {
          for (const job of jobs) {
            phases.add(job.status?.phase ?? '');
          }
        },
      );
      try {
        await observer.synced;
        await createJob(
          client,
          jobBody(namespace, 'brief', { spec: { completionPolicy: { ttlSecondsAfterFinished: 1 } } }),
        );
        await waitFor(() => Promise.resolve(phases.has('completed') ? true : undefined), { description: 'completed' });
      } finally {
        observer.stop();
      }
      await waitFor(
        async () => ((await client.list(broadcastJobResource, { namespace })).items.length === 0 ? true : undefined),
        { description: 'the job deleted', timeoutMs: 30_000 },
      );
      await waitFor(async () => ((await jobPods(client, namespace, 'brief')).length === 0 ? true : undefined), {
        description: 'its pods deleted by the garbage collector',
        timeoutMs: 30_000,
      });
    });
  });
});
