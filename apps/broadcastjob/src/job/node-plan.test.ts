import { describe, expect, it } from 'vitest';

import type { Node, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { planNodes } from './node-plan.ts';
import type { FitResult } from './node-plan.ts';

const node = (name: string, labels: Record<string, string> = {}): Node => ({ metadata: { name, labels } });
const pod = (
  name: string,
  nodeName: string,
  extra: { created?: string; phase?: string; deleting?: boolean } = {},
): Pod => ({
  metadata: {
    name,
    creationTimestamp: extra.created ?? '2026-11-25T00:00:00Z',
    ...(extra.deleting === true ? { deletionTimestamp: '2026-11-25T00:01:00Z' } : {}),
  },
  spec: { nodeName, containers: [{ name: 'c' }] },
  status: { phase: extra.phase ?? 'Running' },
});
/** Fits unless the node is labelled fit=no. */
const fit = (target: DeepReadonly<Node>): FitResult =>
  target.metadata?.labels?.['fit'] === 'no'
    ? { fits: false, reasons: ['node(s) had untolerated taint {dedicated: gpu}'] }
    : { fits: true, reasons: [] };
const plan = (pods: Pod[], nodes: Node[]) => planNodes({ pods, nodes, fit, nodeOf: (p) => p.spec?.nodeName });

describe('planNodes', () => {
  it('wants a pod on every fitting node, and says why the others do not fit', () => {
    const result = plan([pod('p-a', 'a')], [node('c'), node('a'), node('b', { fit: 'no' }), node('d', { fit: 'no' })]);
    expect([...result.desired.keys()].sort()).toEqual(['a', 'c']);
    expect(result.restNodes).toEqual(['c']);
    expect(result.podsToDelete).toEqual([]);
    expect([...result.unfitReasons]).toEqual([['node(s) had untolerated taint {dedicated: gpu}', 2]]);
  });

  it('deletes a pod whose node no longer fits, unless it is already being deleted', () => {
    const result = plan(
      [pod('p-b', 'b'), pod('p-d', 'd', { deleting: true })],
      [node('b', { fit: 'no' }), node('d', { fit: 'no' })],
    );
    expect(result.podsToDelete.map((entry) => [entry.pod.metadata?.name, entry.reason])).toEqual([
      ['p-b', 'NodeUnfit'],
    ]);
    expect([...result.desired.keys()]).toEqual(['d']);
  });

  it('keeps the oldest of two pods on one node and deletes the running newer one', () => {
    const result = plan([pod('new', 'a', { created: '2026-11-25T00:00:05Z' }), pod('old', 'a')], [node('a')]);
    expect(result.duplicateNodes).toEqual(['a']);
    expect(result.desired.get('a')?.metadata?.name).toBe('old');
    expect(result.podsToDelete.map((entry) => [entry.pod.metadata?.name, entry.reason])).toEqual([
      ['new', 'DuplicatePod'],
    ]);
  });

  it('deletes the running pods of a node that left, and keeps its finished ones out of the desired nodes', () => {
    const result = plan([pod('gone-running', 'x'), pod('gone-done', 'y', { phase: 'Succeeded' })], [node('a')]);
    expect(result.podsToDelete.map((entry) => [entry.pod.metadata?.name, entry.reason])).toEqual([
      ['gone-running', 'NodeGone'],
    ]);
    expect([...result.desired.keys()]).toEqual(['a']);
  });
});
