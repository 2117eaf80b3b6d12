/**
 * A BroadcastJob whose pod creations the API server refuses (a ResourceQuota of no pods), on the real
 * control plane: the refusals go through the work queue's per-item exponential backoff (create
 * requests over 30 s grow logarithmically, not linearly), the FailedCreatePod condition and a
 * FailedCreate Event name the quota, and once the quota is deleted, nothing else changing (no edit
 * of the job, no pod or node event), the next retry creates the pods and the job completes.
 *
 * The backoff is the production one (OpenKruise's: doubling per failure, capped at 1,000 s) on half
 * its time scale: `--rate-limiter-base-delay` 2.5 ms instead of the default 5 ms (the defaults are
 * unit-tested with the flags), so the same 14 attempts fit in 30 s instead of 60 s. At 30 s the next
 * retry is due about 20 s after the last one, so the wait for completion allows for that one delay
 * (the cap is never reached within the test).
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import type { BroadcastJob } from '@kruise-ts/api';
import { eventResource } from '@kruise-ts/controller-runtime';
import { observeObjects, RequestLog, testClient } from '@kruise-ts/controller-runtime/testing';
import { forbidPods, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { nodeResource } from '@kruise-ts/workload';

import { createJob, jobBody, jobPods, testNodes, waitForJob, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const core = kubeConfig.makeApiClient(CoreV1Api);

const POD_COLLECTION = /^\/api\/v1\/namespaces\/[^/]+\/pods$/;
const WINDOW_MS = 30_000;
/** The work queue's per-item backoff, on half the default time scale: 2.5 ms, doubled per failure. */
const BASE_DELAY_MS = 2.5;

/**
 * The most attempts exponential backoff allows within `windowMs`: the first, then one after each
 * delay of 2.5, 5, 10, … ms while their sum fits (14 in 30 s). A retry every second would be 30.
 */
function backoffAttempts(windowMs: number): number {
  let attempts = 1;
  let elapsed = 0;
  for (let delay = BASE_DELAY_MS; elapsed + delay <= windowMs; delay *= 2) {
    elapsed += delay;
    attempts++;
  }
  return attempts;
}

/**
 * Besides the backoff's retries, watch events reconcile the job at once: its creation and the status
 * write of the first failure (the condition). A few of them at most.
 */
const EVENT_RECONCILES = 4;

/**
 * Nodes are cluster-wide: other tests running at the same time add, cordon and delete their nodes,
 * and each such change reconciles every unfinished job at once (as it must: a new node may want a
 * pod). The test counts those changes (what of a node decides fitness, as the controller's node
 * handler compares it) and allows one attempt for each.
 */
function watchNodeChanges(): { readonly at: number[]; stop(): void; readonly synced: Promise<void> } {
  const at: number[] = [];
  let last: string | undefined;
  const observer = observeObjects(kubeConfig, { resource: nodeResource, namespace: '', labelSelector: '' }, (nodes) => {
    const signature = JSON.stringify(
      nodes
        .map((node) => [
          node.metadata?.name,
          node.metadata?.labels,
          node.spec?.taints,
          node.spec?.unschedulable,
          node.status?.allocatable,
        ])
        .sort(),
    );
    if (last !== undefined && signature !== last) {
      at.push(performance.now());
    }
    last = signature;
  });
  return {
    at,
    synced: observer.synced,
    stop: () => {
      observer.stop();
    },
  };
}

function condition(
  job: BroadcastJob,
  type: string,
): NonNullable<NonNullable<BroadcastJob['status']>['conditions']>[number] | undefined {
  return job.status?.conditions?.find((candidate) => candidate.type === type);
}

describe('BroadcastJob pod creations refused', () => {
  it('backs off exponentially while a quota refuses its pods, says so in a condition and an Event, and completes once the quota is deleted, with no other change', async () => {
    const log = new RequestLog();
    await withController(
      'bcj-quota',
      async (namespace) => {
        await using nodes = await testNodes(namespace, 2);
        expect(nodes.names).toHaveLength(2);
        await forbidPods(kubeConfig, namespace);
        const nodeChanges = watchNodeChanges();
        await nodeChanges.synced;
        const started = performance.now();
        await createJob(client, jobBody(namespace, 'quota', { podAnnotations: { 'sim.kruise-ts.io/run-ms': '300' } }));
        const failing = await waitForJob(
          client,
          { namespace, name: 'quota', description: 'the FailedCreatePod condition' },
          (job) => condition(job, 'FailedCreatePod')?.status === 'True',
        );
        expect(condition(failing, 'FailedCreatePod')).toMatchObject({ reason: 'CreateError' });
        expect(condition(failing, 'FailedCreatePod')?.message).toContain('exceeded quota: no-pods');
        const events = await waitFor(
          async () => {
            const found = (await client.list(eventResource, { namespace })).items.filter(
              (event) => event.reason === 'FailedCreate' && event.involvedObject.name === 'quota',
            );
            return found.length > 0 ? found : undefined;
          },
          { description: 'a FailedCreate Event' },
        );
        expect(events[0]).toMatchObject({ type: 'Warning' });
        expect(events[0]?.message).toContain('exceeded quota: no-pods');

        // The measurement window itself, not a wait for something to happen.
        await sleep(Math.max(0, started + WINDOW_MS - performance.now()));
        nodeChanges.stop();
        const creates = log.matching('create', POD_COLLECTION).map((request) => Math.round(request.sentAt - started));
        const changes = nodeChanges.at.map((at) => Math.round(at - started)).filter((at) => at <= WINDOW_MS);
        const seen = `creations at ${JSON.stringify(creates)} ms, node changes at ${JSON.stringify(changes)} ms`;
        expect(creates.length, seen).toBeGreaterThanOrEqual(8);
        // 14 in 30 s by the backoff, against 30 for a retry every second.
        expect(creates.length, seen).toBeLessThanOrEqual(
          backoffAttempts(WINDOW_MS) + EVENT_RECONCILES + changes.length,
        );
        // Logarithmic: in the window's second half the backoff retries once (at about 20.5 s).
        const late = (at: number): boolean => at >= WINDOW_MS / 2;
        expect(creates.filter(late).length, seen).toBeLessThanOrEqual(2 + changes.filter(late).length);
        expect(await jobPods(client, namespace, 'quota')).toEqual([]);

        // The cause goes, nothing else changes in the namespace: the backoff's next retry (due at
        // most about 20.5 s after the one near 20.5 s, so by about 41 s) creates the pods, and the job
        // runs to completion.
        await core.deleteNamespacedResourceQuota({ namespace, name: 'no-pods' });
        const done = await waitForJob(
          client,
          { namespace, name: 'quota', description: 'completed after the quota went', timeoutMs: 40_000 },
          (job) => job.status?.phase === 'completed',
        );
        expect(done.status).toMatchObject({ desired: 2, succeeded: 2, failed: 0 });
        expect(condition(done, 'FailedCreatePod')).toBeUndefined();
        expect(condition(done, 'Complete')?.status).toBe('True');
      },
      { requestObservers: [log], rateLimiter: { baseDelayMs: BASE_DELAY_MS } },
    );
  }, 120_000);
});
