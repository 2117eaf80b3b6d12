/**
 * Slow start of pod creations on the real API server: a CloneSet whose last creations all went
 * through starts its next ones at the largest batch that did (SlowStartMemory), not at 1 again.
 */
import { performance } from 'node:perf_hooks';

import { describe, expect, it } from 'vitest';

import type { RequestObserver, RequestRecord } from '@kruise-ts/controller-runtime';
import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { cloneSetResource } from '../../src/index.ts';
import {
  createCloneSet,
  installCloneSetCrd,
  settled,
  startController,
  testClient,
  waitForStatus,
  webCloneSet,
} from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

/** When each pod creation was sent and answered (ms, this process's clock). */
class CreationTimes implements RequestObserver {
  readonly creations: { readonly sentAt: number; readonly answeredAt: number }[] = [];

  observeRequest(record: RequestRecord): void {
    if (record.verb === 'create' && record.dryRun !== true && /\/pods$/.test(record.path)) {
      const answeredAt = performance.now();
      this.creations.push({ sentAt: answeredAt - record.durationSeconds * 1000, answeredAt });
    }
  }

  /** Creations after the first `skip` that were sent before the first of them was answered: the first batch. */
  firstBatchAfter(skip: number): number {
    const later = this.creations.slice(skip);
    const firstAnswer = Math.min(...later.map((creation) => creation.answeredAt));
    return later.filter((creation) => creation.sentAt < firstAnswer).length;
  }
}

describe('CloneSet slow start of pod creations', () => {
  it('starts the next scale-out at the last full batch: 8 pods (1, 2, 4, 1), then 8 more from a first batch of 4', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'slow-start');
    const times = new CreationTimes();
    const controller = startController({ kubeConfig, namespace: ns.name, requestObservers: [times] });
    try {
      await createCloneSet(client, ns.name, webCloneSet(8));
      await waitForStatus(client, { namespace: ns.name, name: 'web', description: 'eight pods' }, settled);
      expect(times.creations).toHaveLength(8);
      // A new CloneSet starts at one creation.
      expect(times.firstBatchAfter(0)).toBe(1);
      await client.patch(
        cloneSetResource,
        { namespace: ns.name, name: 'web' },
        { type: 'merge', body: { spec: { replicas: 16 } } },
      );
      await waitForStatus(
        client,
        { namespace: ns.name, name: 'web', description: 'sixteen pods' },
        (cs) => settled(cs) && cs.status?.replicas === 16,
      );
      expect(times.creations).toHaveLength(16);
      expect(times.firstBatchAfter(8)).toBe(4);
    } finally {
      await controller.stop();
    }
  });
});
