/**
 * Graceful shutdown in the middle of a large rollout, on a real API server: the manager returns
 * within its graceful-shutdown timeout although hundreds of pod writes are in flight, and the
 * controller sends nothing after that (the next leader may already be acting).
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { cloneSetResource } from '../../src/index.ts';
import {
  activePods,
  createCloneSet,
  installCloneSetCrd,
  RequestLog,
  settled,
  startController,
  testClient,
  waitForStatus,
  webCloneSet,
} from '../support/harness.ts';
import { imageOf } from '../support/pods.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

const REPLICAS = 1000;
const GRACEFUL_SHUTDOWN_MS = 5000;

describe('CloneSet controller shutdown', () => {
  it(`returns within the graceful-shutdown timeout during an in-place rollout of ${String(REPLICAS)} pods, and sends nothing afterwards`, async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'shutdown');
    const log = new RequestLog();
    const controller = startController({
      kubeConfig,
      namespace: ns.name,
      requestObservers: [log],
      gracefulShutdownTimeoutMs: GRACEFUL_SHUTDOWN_MS,
    });
    let stopped = false;
    try {
      await createCloneSet(
        client,
        ns.name,
        webCloneSet(REPLICAS, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '100%' } }),
      );
      await waitForStatus(
        client,
        { namespace: ns.name, name: 'web', description: `${String(REPLICAS)} pods ready`, timeoutMs: 240_000 },
        settled,
      );
      await client.patch(
        cloneSetResource,
        { namespace: ns.name, name: 'web' },
        {
          type: 'json',
          body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.27' }],
        },
      );
      // Well into the rollout: the controller has hundreds of pod writes to make or in flight.
      const writesAtChange = log.requests.length;
      await waitFor(() => Promise.resolve(log.requests.length - writesAtChange > 200 || undefined), {
        description: 'the rollout to be under way',
        intervalMs: 10,
      });

      const stopping = performance.now();
      await controller.stop();
      stopped = true;
      const returned = performance.now();
      expect(returned - stopping).toBeLessThan(GRACEFUL_SHUTDOWN_MS);

      // Requests still completing now were sent before; any request sent from here on would be a defect.
      await sleep(2000);
      const late = log.requests.filter((request) => request.sentAt > returned);
      expect(late).toEqual([]);
      // Stopped in the middle: some pods have the new image, not all.
      const updated = (await activePods(client, ns.name, 'app=web')).filter(
        (pod) => imageOf(pod) === 'nginx:1.27',
      ).length;
      expect(updated).toBeLessThan(REPLICAS);
    } finally {
      if (!stopped) {
        await controller.stop();
      }
    }
  }, 420_000);
});
