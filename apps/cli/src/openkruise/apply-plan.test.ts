/** The wait for the manager's pods, on a fake clock: done when the last one (terminating or not) is gone, else a timeout that says where it stopped. */
import { describe, expect, it } from 'vitest';

import { FakeClient } from '@kruise-ts/controller-runtime/testing';

import { podResource } from '../resources/resource-types.ts';
import { applyChanges, POLL_INTERVAL_MS } from './apply-plan.ts';
import type { ManagerFinding } from './findings.ts';

const MANAGER: ManagerFinding = {
  name: 'kruise-controller-manager',
  uid: 'd',
  resourceVersion: '1',
  replicas: 0,
  selector: 'control-plane=controller-manager',
  pods: 2,
  recordedReplicas: 2,
};

function seedPods(client: FakeClient, names: readonly string[]): void {
  client.seed(
    podResource,
    names.map((name) => ({
      metadata: {
        name,
        namespace: 'kruise-system',
        uid: '',
        labels: { 'control-plane': name === 'other' ? 'other' : 'controller-manager' },
      },
    })),
  );
}

function runtime(
  client: FakeClient,
  options: { readonly timeoutMs: number; readonly onSleep?: () => void },
): { readonly lines: string[]; readonly run: () => Promise<void> } {
  let now = 0;
  const lines: string[] = [];
  const sleep = (ms: number): Promise<void> => {
    now += ms;
    options.onSleep?.();
    return Promise.resolve();
  };
  const change = { type: 'stop-manager' as const, manager: MANAGER };
  return {
    lines,
    run: () =>
      applyChanges(
        {
          client,
          print: (line) => lines.push(line),
          now: () => now,
          sleep,
          namespace: 'kruise-system',
          timeoutMs: options.timeoutMs,
        },
        [change],
      ),
  };
}

describe('stopping the manager', () => {
  it('waits until its pods are gone, not counting other pods of the namespace; writes nothing when it is at 0 already', async () => {
    const client = new FakeClient();
    seedPods(client, ['kruise-controller-manager-a', 'kruise-controller-manager-b', 'other']);
    const names = ['kruise-controller-manager-a', 'kruise-controller-manager-b'];
    const { lines, run } = runtime(client, {
      timeoutMs: 60_000,
      onSleep: () => {
        const name = names.shift();
        if (name !== undefined) {
          void client.delete(podResource, { namespace: 'kruise-system', name });
        }
      },
    });
    await run();
    expect(lines).toEqual(['deployment.apps/kruise-controller-manager: its pods are gone']);
    expect(client.actions.filter((action) => action.verb === 'list')).toHaveLength(3);
    expect(client.writes().filter((action) => action.resource !== 'pods')).toEqual([]);
  });

  it('gives up after --timeout, saying how many pods are left and that a re-run goes on', async () => {
    const client = new FakeClient();
    seedPods(client, ['kruise-controller-manager-a']);
    const { run } = runtime(client, { timeoutMs: 3000 });
    await expect(run()).rejects.toThrow(
      'timed out after 3s waiting for the pods of deployment.apps/kruise-controller-manager to be gone (1 left)\nthe changes before this one are made; run the same command again to go on',
    );
    expect(client.actions.filter((action) => action.verb === 'list')).toHaveLength(3000 / POLL_INTERVAL_MS + 1);
  });
});
