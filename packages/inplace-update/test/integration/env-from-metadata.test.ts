/**
 * Env from metadata on a real API server: the kruise-daemon simulator keeps runtime-containers-meta
 * current and restarts the container whose env reads a changed label; the update completes when it
 * reports the new hash.
 */
import { describe, expect, it } from 'vitest';

import type { PodTemplateSpec } from '@kruise-ts/api';
import { LIFECYCLE_STATE_LABEL } from '@kruise-ts/api';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { revisionLabels } from '@kruise-ts/revision';
import { podResource } from '@kruise-ts/workload';

import {
  calculateInPlaceUpdateSpec,
  completeInPlaceUpdate,
  envFromMetadataHash,
  isInPlaceUpdateCompleted,
  podCanApplyInPlace,
  refreshInPlaceUpdate,
  RUNTIME_CONTAINERS_META_ANNOTATION,
  runtimeContainerMeta,
  startInPlaceUpdate,
} from '../../src/index.ts';
import { startContainerMetaReporter } from '../../src/testing/index.ts';
import { revisionOf } from '../fixtures/revisions.ts';
import { countingClient, createRunningPod, isReady, podClient } from './support.ts';

const kubeConfig = testKubeConfig();

function template(track: string): PodTemplateSpec {
  return {
    metadata: { labels: { app: 'demo', track }, annotations: { note: 'n' } },
    spec: {
      containers: [
        {
          name: 'main',
          image: 'nginx:1.25',
          env: [{ name: 'TRACK', valueFrom: { fieldRef: { fieldPath: "metadata.labels['track']" } } }],
        },
        {
          name: 'side',
          image: 'busybox:1',
          env: [{ name: 'NOTE', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['note']" } } }],
        },
      ],
    },
  };
}

describe('env from metadata with the kruise-daemon simulator', () => {
  it('restarts only the container whose label changed and completes in 3 writes of ours', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'inplace-env');
    const reporter = startContainerMetaReporter({ kubeConfig, namespace: ns.name });
    try {
      await reporter.synced;
      const { client, writes } = countingClient(kubeConfig);
      await createRunningPod({
        client,
        namespace: ns.name,
        name: 'web',
        template: template('stable'),
        revision: 'demo-1',
      });
      const reported = await waitFor(
        async () => {
          const pod = await client.get(podResource, { namespace: ns.name, name: 'web' });
          return pod.metadata?.annotations?.[RUNTIME_CONTAINERS_META_ANNOTATION] === undefined ? undefined : pod;
        },
        { description: 'the simulator to report runtime-containers-meta' },
      );
      const decision = calculateInPlaceUpdateSpec({
        oldRevision: revisionOf('demo-1', template('stable')),
        newRevision: revisionOf('demo-2', template('canary')),
        gracePeriodSeconds: 0,
        inPlaceOnly: false,
        gates: { verticalScaling: false, envFromMetadata: true, recreateOnVolumeClaimTemplatesChange: false },
      });
      expect(decision).toMatchObject({
        kind: 'in-place',
        spec: {
          containerRefMetadata: { main: { labels: { track: 'canary' } } },
          updateEnvFromMetadata: true,
          containerImages: {},
        },
      });
      if (decision.kind !== 'in-place') {
        return;
      }
      expect(podCanApplyInPlace(reported, decision.spec)).toEqual({ ok: true });
      const before = writes();

      const started = await startInPlaceUpdate({
        client: podClient(client),
        pod: reported,
        spec: decision.spec,
        now: Date.now(),
        labels: { ...revisionLabels('demo-2', { shortHash: false }), [LIFECYCLE_STATE_LABEL]: 'Updating' },
        annotations: {},
        verticalScaling: false,
      });
      expect(started.writes).toBe(2);
      expect(started.pod.metadata?.labels?.['track']).toBe('canary');

      const done = await waitFor(
        async () => {
          const pod = await client.get(podResource, { namespace: ns.name, name: 'web' });
          const refreshed = await refreshInPlaceUpdate({
            client: podClient(client),
            pod,
            now: Date.now(),
            verticalScaling: false,
          });
          return refreshed.outcome === 'completed' ? refreshed.pod : undefined;
        },
        { description: 'the env-from-metadata update to complete' },
      );
      expect(isInPlaceUpdateCompleted(done, { verticalScaling: false })).toBe(true);
      expect(done.status?.containerStatuses?.map((status) => [status.name, status.restartCount])).toEqual([
        ['main', 1],
        ['side', 0],
      ]);
      const meta = runtimeContainerMeta(done);
      const main = done.spec?.containers[0];
      expect(meta.kind === 'meta' ? meta.meta.containers[0]?.hashes.extractedEnvFromMetadataHash : 0).toBe(
        main === undefined ? -1 : envFromMetadataHash(main, { labels: { track: 'canary' } }),
      );

      const completed = await completeInPlaceUpdate({
        client: podClient(client),
        pod: done,
        now: Date.now(),
        labels: { [LIFECYCLE_STATE_LABEL]: 'Normal' },
      });
      expect(completed.writes).toBe(1);
      // Ready True comes from the (simulated) kubelet once the gate is True.
      await waitFor(
        async () =>
          isReady(await client.get(podResource, { namespace: ns.name, name: done.metadata?.name ?? '' })) || undefined,
        { description: 'Ready True' },
      );
      expect(writes() - before).toBe(3);
      expect(reporter.restarts()).toBe(1);
    } finally {
      await reporter.stop();
    }
  });
});
