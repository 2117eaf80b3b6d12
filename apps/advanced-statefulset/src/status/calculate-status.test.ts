import { describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim, Pod, StatefulSet } from '@kruise-ts/api';
import { statefulSetSchema } from '@kruise-ts/api';

import { calculateStatus } from './calculate-status.ts';

const NOW = Date.parse('2026-11-24T10:00:00Z');

const set: StatefulSet = statefulSetSchema.parse({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  metadata: { name: 'db', generation: 4 },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'db' } },
    template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } },
    volumeClaimTemplates: [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ],
  },
});

function pod(name: string, revision: string, state: { phase?: string; ready?: boolean; deleting?: boolean } = {}): Pod {
  return {
    metadata: {
      name,
      labels: { 'controller-revision-hash': revision },
      ...(state.deleting === true ? { deletionTimestamp: '2026-11-24T09:59:00Z' } : {}),
    },
    status: {
      ...(state.phase === '' ? {} : { phase: state.phase ?? 'Running' }),
      conditions: [
        { type: 'Ready', status: state.ready === false ? 'False' : 'True', lastTransitionTime: '2026-11-24T09:00:00Z' },
      ],
    },
  };
}

function claim(name: string, storage: string, capacity?: string): PersistentVolumeClaim {
  return {
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
    ...(capacity === undefined ? {} : { status: { capacity: { storage: capacity } } }),
  };
}

const claims = new Map([
  ['data-db-0', claim('data-db-0', '1Gi', '1Gi')],
  ['data-db-1', claim('data-db-1', '2Gi', '1Gi')],
  ['data-db-2', claim('data-db-2', '512Mi', '512Mi')],
]);

describe('calculateStatus', () => {
  const base = {
    set,
    claims,
    currentRevision: 'db-old',
    updateRevision: 'db-new',
    collisionCount: 0,
    minReadySeconds: 0,
    conditions: [],
    now: NOW,
  };

  // A terminating pod counts as created, never as ready, current or updated (OpenKruise counts it ready while Running).
  it("counts created, ready, available, current and updated pods, and each template's claims", () => {
    const status = calculateStatus({
      ...base,
      pods: [
        pod('db-0', 'db-old'),
        pod('db-1', 'db-new', { ready: false }),
        pod('db-2', 'db-new', { deleting: true }),
        pod('db-3', 'db-new', { phase: '' }),
      ],
    });
    expect(status).toMatchObject({
      observedGeneration: 4,
      replicas: 3,
      readyReplicas: 1,
      availableReplicas: 1,
      currentReplicas: 1,
      updatedReplicas: 1,
      updatedReadyReplicas: 0,
      updatedAvailableReplicas: 0,
      currentRevision: 'db-old',
      updateRevision: 'db-new',
      labelSelector: 'app=db',
      volumeClaims: [{ volumeClaimName: 'data', compatibleReplicas: 2, compatibleReadyReplicas: 1 }],
    });
  });

  it('moves the current revision to the update revision once every pod is updated and ready', () => {
    const status = calculateStatus({
      ...base,
      pods: [pod('db-0', 'db-new'), pod('db-1', 'db-new'), pod('db-2', 'db-new')],
    });
    expect(status).toMatchObject({ currentRevision: 'db-new', currentReplicas: 3, updatedReplicas: 3 });
  });

  it('counts a pod available only after minReadySeconds', () => {
    const status = calculateStatus({ ...base, minReadySeconds: 3600 * 2, pods: [pod('db-0', 'db-new')] });
    expect(status).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
  });
});
