import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { runningPod } from '../../test/fixtures/revisions.ts';
import { envFromMetadataHash } from '../internal/env-from-metadata.ts';
import { runtimeContainerMeta } from '../internal/runtime-containers-meta.ts';
import { planContainerMeta, simulatedContainerId } from './container-meta-plan.ts';

const NOW = Date.parse('2026-01-02T03:04:05Z');
const META = 'apps.kruise.io/runtime-containers-meta';

function reported(pod: Pod): Pod {
  const action = planContainerMeta(pod, NOW);
  if (action.kind !== 'report') {
    throw new Error(`expected a report, got ${action.kind}`);
  }
  return {
    ...pod,
    metadata: { ...pod.metadata, annotations: { ...pod.metadata?.annotations, [META]: action.annotation } },
  };
}

function relabelled(pod: Pod, track: string, inPlaceReady: string): Pod {
  const conditions = (pod.status?.conditions ?? []).map((c) =>
    c.type === 'InPlaceUpdateReady' ? { ...c, status: inPlaceReady } : c,
  );
  return {
    ...pod,
    metadata: { ...pod.metadata, labels: { ...pod.metadata?.labels, track } },
    status: { ...pod.status, conditions },
  };
}

describe('planContainerMeta', () => {
  it('reports every running container with the hash of the current labels and annotations', () => {
    const pod = reported(runningPod());
    const meta = runtimeContainerMeta(pod);
    const container = pod.spec?.containers[0];
    expect(container).toBeDefined();
    expect(meta).toMatchObject({
      kind: 'meta',
      meta: {
        containers: [
          {
            name: 'main',
            containerID: 'sim://main-0',
            restartCount: 0,
            hashes: {
              plainHash: 0,
              extractedEnvFromMetadataHash:
                container === undefined ? 0 : envFromMetadataHash(container, { labels: pod.metadata?.labels }),
            },
          },
          { name: 'sidecar', containerID: 'sim://sidecar-0' },
        ],
      },
    });
    expect(planContainerMeta(pod, NOW)).toEqual({ kind: 'none' });
  });

  it.each<{ name: string; pod: Pod }>([
    { name: 'a pending pod', pod: { ...runningPod(), status: { ...runningPod().status, phase: 'Pending' } } },
    {
      name: 'a terminating pod',
      pod: { ...runningPod(), metadata: { ...runningPod().metadata, deletionTimestamp: '2026-01-02T00:00:00Z' } },
    },
    {
      name: 'a pod without env from metadata',
      pod: { ...runningPod(), spec: { containers: [{ name: 'main', image: 'x' }] } },
    },
  ])('ignores $name', ({ pod }) => {
    expect(planContainerMeta(pod, NOW)).toEqual({ kind: 'none' });
  });

  it('restarts the container whose label changed during an in-place update, then reports its new hash', () => {
    const before = reported(runningPod());
    const updating = relabelled(before, 'canary', 'False');
    const action = planContainerMeta(updating, NOW);
    expect(action).toMatchObject({ kind: 'restart', containers: ['main'] });
    const statuses = action.kind === 'restart' ? action.containerStatuses : [];
    expect(statuses[0]).toMatchObject({
      name: 'main',
      restartCount: 1,
      containerID: simulatedContainerId(updating, 'main', 1),
      state: { running: { startedAt: '2026-01-02T03:04:05Z' } },
      lastState: {
        terminated: {
          containerID: 'sim://main-0',
          startedAt: '2026-01-01T00:00:00Z',
          finishedAt: '2026-01-02T03:04:05Z',
        },
      },
    });
    expect(statuses[1]).toEqual(updating.status?.containerStatuses?.[1]);

    const restarted = reported({ ...updating, status: { ...updating.status, containerStatuses: statuses } });
    const meta = runtimeContainerMeta(restarted);
    const main = updating.spec?.containers[0];
    expect(
      meta.kind === 'meta'
        ? meta.meta.containers.map((c) => [c.name, c.containerID, c.hashes.extractedEnvFromMetadataHash])
        : [],
    ).toEqual([
      [
        'main',
        simulatedContainerId(updating, 'main', 1),
        main === undefined ? 0 : envFromMetadataHash(main, { labels: { track: 'canary' } }),
      ],
      ['sidecar', 'sim://sidecar-0', expect.any(Number) as unknown],
    ]);
    expect(planContainerMeta(restarted, NOW)).toEqual({ kind: 'none' });
  });

  it('does not restart outside an in-place update', () => {
    expect(planContainerMeta(relabelled(reported(runningPod()), 'canary', 'True'), NOW)).toEqual({ kind: 'none' });
  });
});
