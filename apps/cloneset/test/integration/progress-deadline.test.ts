import { describe, expect, it } from 'vitest';

import type { CloneSet, CloneSetCondition } from '@kruise-ts/api';
import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import {
  activePods,
  createCloneSet,
  installCloneSetCrd,
  startController,
  testClient,
  waitForStatus,
} from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
/** A readiness gate nobody sets: the pods stay not Ready until the test sets it. */
const WARM = 'example.com/warm';

const progressing = (cs: CloneSet): CloneSetCondition | undefined =>
  cs.status?.conditions?.find((c) => c.type === 'Progressing');

describe('CloneSet Progressing condition', () => {
  it('times out after progressDeadlineSeconds without progress, stays timed out, and turns Available when the pods are', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'cloneset-progress');
    const controller = startController({ kubeConfig, namespace: ns.name });
    try {
      await createCloneSet(client, ns.name, {
        metadata: { name: 'slow' },
        spec: {
          replicas: 2,
          progressDeadlineSeconds: 3,
          selector: { matchLabels: { app: 'slow' } },
          template: {
            metadata: { labels: { app: 'slow' } },
            spec: { readinessGates: [{ conditionType: WARM }], containers: [{ name: 'main', image: 'nginx:alpine' }] },
          },
        },
      });
      const started = await waitForStatus(
        client,
        { namespace: ns.name, name: 'slow', description: 'Progressing True/CloneSetUpdated' },
        (cs) => progressing(cs)?.reason === 'CloneSetUpdated',
      );
      expect(progressing(started)?.status).toBe('True');
      expect(started.status?.readyReplicas ?? 0).toBe(0);

      const timedOut = await waitForStatus(
        client,
        { namespace: ns.name, name: 'slow', description: 'ProgressDeadlineExceeded' },
        (cs) => progressing(cs)?.reason === 'ProgressDeadlineExceeded',
      );
      expect(progressing(timedOut)?.status).toBe('False');

      for (const pod of await activePods(client, ns.name, 'app=slow')) {
        await client.patchStatus(
          podResource,
          { namespace: ns.name, name: pod.metadata?.name ?? '' },
          {
            type: 'strategic',
            body: {
              status: {
                conditions: [
                  {
                    type: WARM,
                    status: 'True',
                    lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
                  },
                ],
              },
            },
          },
        );
      }
      const available = await waitForStatus(
        client,
        { namespace: ns.name, name: 'slow', description: 'Progressing True/CloneSetAvailable' },
        (cs) => progressing(cs)?.reason === 'CloneSetAvailable',
      );
      expect(progressing(available)?.status).toBe('True');
      expect(available.status?.availableReplicas).toBe(2);
    } finally {
      await controller.stop();
    }
  });
});
