import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { ApiError } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, PatchRequest } from '@kruise-ts/controller-runtime';

import { setLifecycleState } from './set-lifecycle-state.ts';
import type { LifecyclePodClient } from './set-lifecycle-state.ts';

const NOW = Date.parse('2026-01-02T00:00:00Z');

interface Call {
  readonly verb: 'get' | 'patch' | 'patchStatus';
  readonly body?: unknown;
}

/** A fake client: records calls, answers patches with the pod plus a bumped resourceVersion. */
function fakeClient(pod: Pod, conflicts = 0): { client: LifecyclePodClient; calls: Call[] } {
  const calls: Call[] = [];
  let remainingConflicts = conflicts;
  const bumped = (): Pod => ({
    ...pod,
    metadata: { ...pod.metadata, resourceVersion: `${pod.metadata?.resourceVersion ?? '0'}1` },
  });
  const client = {
    get: () => {
      calls.push({ verb: 'get' });
      return Promise.resolve(bumped());
    },
    patch: (_key: unknown, patch: PatchRequest) => {
      calls.push({ verb: 'patch', body: patch.body });
      return Promise.resolve(bumped());
    },
    patchStatus: (_key: unknown, patch: PatchRequest) => {
      calls.push({ verb: 'patchStatus', body: patch.body });
      if (remainingConflicts > 0) {
        remainingConflicts -= 1;
        return Promise.reject(new ApiError({ code: 409, message: 'conflict' }));
      }
      return Promise.resolve(bumped());
    },
  } as unknown as LifecyclePodClient;
  return { client, calls };
}

function pod(state?: string, gate = true): Pod {
  return {
    metadata: {
      name: 'p',
      namespace: 'ns',
      resourceVersion: '5',
      labels: state === undefined ? {} : { 'lifecycle.apps.kruise.io/state': state },
    },
    spec: { containers: [{ name: 'c' }], ...(gate ? { readinessGates: [{ conditionType: 'KruisePodReady' }] } : {}) },
    status: { conditions: [{ type: 'KruisePodReady', status: 'True' }] },
  };
}

describe('setLifecycleState', () => {
  it('patches label and timestamp only when the state changes', async () => {
    const { client, calls } = fakeClient(pod('Normal'));
    const input: DeepReadonly<Pod> = pod('Normal');
    const result = await setLifecycleState({
      client,
      pod: input,
      state: 'PreparingDelete',
      markPodNotReady: false,
      now: NOW,
    });
    expect(calls).toEqual([
      {
        verb: 'patch',
        body: {
          metadata: {
            labels: { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' },
            annotations: { 'lifecycle.apps.kruise.io/timestamp': '2026-01-02T00:00:00Z' },
          },
        },
      },
    ]);
    expect(result).not.toBe(input);
  });

  it('writes nothing and returns the same pod when already in the state without readiness work', async () => {
    const { client, calls } = fakeClient(pod('Normal'));
    const input = pod('Normal');
    expect(await setLifecycleState({ client, pod: input, state: 'Normal', markPodNotReady: true, now: NOW })).toBe(
      input,
    );
    expect(calls).toEqual([]);
  });

  it('writes the KruisePodReady condition and the state in one pods/status patch, with the resourceVersion as precondition', async () => {
    const { client, calls } = fakeClient(pod('Normal'));
    await setLifecycleState({ client, pod: pod('Normal'), state: 'PreparingDelete', markPodNotReady: true, now: NOW });
    expect(calls.map((c) => c.verb)).toEqual(['patchStatus']);
    expect(calls[0]?.body).toEqual({
      metadata: {
        resourceVersion: '5',
        labels: { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' },
        annotations: { 'lifecycle.apps.kruise.io/timestamp': '2026-01-02T00:00:00Z' },
      },
      status: {
        conditions: [
          {
            type: 'KruisePodReady',
            status: 'False',
            message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
            lastTransitionTime: '2026-01-02T00:00:00Z',
          },
        ],
      },
    });
  });

  it('still applies the readiness change when the pod is already in the state', async () => {
    const { client, calls } = fakeClient(pod('PreparingDelete'));
    await setLifecycleState({
      client,
      pod: pod('PreparingDelete'),
      state: 'PreparingDelete',
      markPodNotReady: true,
      now: NOW,
    });
    expect(calls.map((c) => c.verb)).toEqual(['patchStatus']);
  });

  it('skips the condition without the readiness gate', async () => {
    const { client, calls } = fakeClient(pod('Normal', false));
    await setLifecycleState({
      client,
      pod: pod('Normal', false),
      state: 'PreparingUpdate',
      markPodNotReady: true,
      now: NOW,
    });
    expect(calls.map((c) => c.verb)).toEqual(['patch']);
  });

  it('re-reads the pod and retries the status write on Conflict', async () => {
    const { client, calls } = fakeClient(pod('Normal'), 2);
    await setLifecycleState({ client, pod: pod('Normal'), state: 'PreparingDelete', markPodNotReady: true, now: NOW });
    expect(calls.map((c) => c.verb)).toEqual(['patchStatus', 'get', 'patchStatus', 'get', 'patchStatus']);
    expect((calls[2]?.body as { metadata: unknown }).metadata).toMatchObject({ resourceVersion: '51' });
  });

  it('gives up after repeated conflicts', async () => {
    const { client } = fakeClient(pod('Normal'), 100);
    await expect(
      setLifecycleState({ client, pod: pod('Normal'), state: 'PreparingDelete', markPodNotReady: true, now: NOW }),
    ).rejects.toThrow('conflict');
  });

  it('puts the hook back in the label patch', async () => {
    const { client, calls } = fakeClient(pod('Updated'));
    await setLifecycleState({
      client,
      pod: pod('Updated'),
      state: 'PreparingUpdate',
      markPodNotReady: false,
      now: NOW,
      reapplyHook: { labelsHandler: { x: 'y' }, finalizersHandler: ['f/hold'] },
    });
    expect(calls[0]?.body).toMatchObject({
      metadata: { labels: { x: 'y', 'lifecycle.apps.kruise.io/state': 'PreparingUpdate' }, finalizers: ['f/hold'] },
    });
  });
});
