import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { fakeClient } from '../../test/fixtures/fake-client.ts';
import { runningPod } from '../../test/fixtures/revisions.ts';
import { completeInPlaceUpdate } from './complete-update.ts';

const NOW = Date.parse('2026-01-02T03:04:05Z');

function updatedPod(): Pod {
  const base = runningPod({ labels: { 'lifecycle.apps.kruise.io/state': 'Updating' } });
  const conditions = (base.status?.conditions ?? []).map((c) =>
    c.type === 'InPlaceUpdateReady'
      ? { ...c, status: 'False', reason: 'StartInPlaceUpdate' }
      : c.type === 'Ready'
        ? { ...c, status: 'False' }
        : c,
  );
  return { ...base, status: { ...base.status, conditions } };
}

describe('completeInPlaceUpdate', () => {
  it('writes the conditions and the caller labels in one pods/status patch', async () => {
    const { client, calls } = fakeClient(updatedPod());
    const result = await completeInPlaceUpdate({
      client,
      pod: updatedPod(),
      now: NOW,
      labels: { 'lifecycle.apps.kruise.io/state': 'Normal' },
      annotations: { 'lifecycle.apps.kruise.io/timestamp': '2026-01-02T03:04:05Z' },
    });
    expect(result.writes).toBe(1);
    expect(calls).toEqual([
      {
        verb: 'patchStatus',
        body: {
          metadata: {
            resourceVersion: '10',
            labels: { 'lifecycle.apps.kruise.io/state': 'Normal' },
            annotations: { 'lifecycle.apps.kruise.io/timestamp': '2026-01-02T03:04:05Z' },
          },
          status: {
            conditions: [
              {
                type: 'InPlaceUpdateReady',
                status: 'True',
                reason: null,
                message: null,
                lastTransitionTime: '2026-01-02T03:04:05Z',
              },
            ],
          },
        },
      },
    ]);
  });

  it('writes nothing when nothing changes, and returns the same object', async () => {
    const pod = runningPod({ labels: { 'lifecycle.apps.kruise.io/state': 'Normal' } });
    const { client, calls } = fakeClient(pod);
    const result = await completeInPlaceUpdate({
      client,
      pod,
      now: NOW,
      labels: { 'lifecycle.apps.kruise.io/state': 'Normal' },
    });
    expect(result).toEqual({ pod, writes: 0 });
    expect(result.pod).toBe(pod);
    expect(calls).toEqual([]);
  });

  it('writes only the labels when the conditions are already done', async () => {
    const pod = runningPod({ labels: { 'lifecycle.apps.kruise.io/state': 'Updating' } });
    const { client, calls } = fakeClient(pod);
    await completeInPlaceUpdate({ client, pod, now: NOW, labels: { 'lifecycle.apps.kruise.io/state': 'Normal' } });
    expect(calls).toEqual([
      {
        verb: 'patchStatus',
        body: { metadata: { resourceVersion: '10', labels: { 'lifecycle.apps.kruise.io/state': 'Normal' } } },
      },
    ]);
  });
});
