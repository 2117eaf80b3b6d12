/**
 * A smoke test of the benchmark tool itself (small N): each run produces complete results for every
 * contender — counted requests, process and metrics figures, a rollout curve — and its three files.
 * How fast anything is, is not asserted: that is what the tool reports.
 *
 * The Advanced StatefulSet, SidecarSet and BroadcastJob scenarios; CloneSet ones in bench-smoke.test.ts.
 */
import { describe, expect, it } from 'vitest';

import type { ContenderResult } from '../../src/index.ts';
import { bench, expectComplete } from '../support/bench-run.ts';

describe('npm run bench', () => {
  it('asts-inplace, 30 pods: our launcher updates the Advanced StatefulSet in place, the native StatefulSet controller replaces its pods', async () => {
    const run = await bench(['asts-inplace', '--pods', '30']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.settings).toMatchObject({ scenario: 'asts-inplace', pods: 30, maxUnavailable: '20%' });
    expect(
      run.result.results.map((result) => [result.contender.name, result.contender.kind, result.workloadKind]),
    ).toEqual([
      ['kruise-ts', 'kruise-ts', 'AdvancedStatefulSet'],
      ['native-statefulset', 'native', 'StatefulSet'],
    ]);
    const [ours, native] = run.result.results;
    for (const result of run.result.results) {
      expectComplete(result, 30);
      expect(result.series.at(-1)).toMatchObject({ replicas: 30, updated: 30, available: 30 });
    }
    const count = (result: ContenderResult | undefined, verb: string): number | undefined =>
      result?.requests.byVerbAndResource.find((row) => row.verb === verb && row.resource === 'pods')?.count;
    // In place: each pod patched, none created or deleted; the native controller deletes and re-creates every pod.
    expect([count(ours, 'patch'), count(ours, 'create'), count(ours, 'delete')]).toEqual([30, undefined, undefined]);
    // The native controller may send a delete twice (a retry after a conflict under load; CI saw 31).
    expect(count(native, 'delete')).toBeGreaterThanOrEqual(30);
    // The native controller retries a create whose name is still held by the terminating pod (409).
    expect(count(native, 'create')).toBeGreaterThanOrEqual(30);
    expect(run.stdout).toContain('native-statefulset');
  });

  it('sidecarset-scale, 30 pods: our launcher scales a CloneSet out without, then with a SidecarSet, every pod of the second injected through its webhook', async () => {
    const run = await bench(['sidecarset-scale', '--pods', '30']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.results.map((result) => [result.contender.name, result.phase, result.workloadKind])).toEqual([
      ['kruise-ts (no SidecarSet)', 'no SidecarSet', 'CloneSet'],
      ['kruise-ts (SidecarSet)', 'SidecarSet', 'CloneSet'],
    ]);
    // The launcher ran with SidecarSet on and wrote its own webhook configuration.
    expect(run.result.results[0]?.contender.command).toContain('--webhook-local-configuration=kruise-ts-bench');
    const [without, withSidecarSet] = run.result.results;
    for (const result of run.result.results) {
      expectComplete(result, 30);
      expect(
        result.requests.byVerbAndResource.find((row) => row.verb === 'create' && row.resource === 'pods')?.count,
      ).toBe(30);
      expect(result.series.at(-1)).toMatchObject({ replicas: 30, available: 30 });
      // Every pod creation of both phases went through the webhook, seen by its server and by the API server.
      expect(result.injection?.webhookLatency.count).toBeGreaterThanOrEqual(30);
      expect(result.injection?.webhookLatency.p99Seconds).toBeGreaterThan(0);
      expect(result.injection?.apiServerAdmission?.count).toBeGreaterThanOrEqual(30);
      expect(result.injection?.podCreateLatency.count).toBe(30);
    }
    expect(without?.injection).toMatchObject({ sidecarSet: false, podsWithSidecar: 0, podsWithoutSidecar: 30 });
    expect(withSidecarSet?.injection).toMatchObject({ sidecarSet: true, podsWithSidecar: 30, podsWithoutSidecar: 0 });
    expect(run.stdout).toContain('### SidecarSet injection');
    expect(run.stdout).toContain('| kruise-ts (SidecarSet) | yes | 30 / 0 |');
  });

  it('bcj-nodes, 20 nodes: our BroadcastJob runs a pod on every node to completion, the native DaemonSet controller places one on every node', async () => {
    const run = await bench(['bcj-nodes', '--nodes', '20', '--job-run-ms', '500']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.settings).toMatchObject({ scenario: 'bcj-nodes', pods: 20, nodes: 20, jobRunMs: 500 });
    expect(
      run.result.results.map((result) => [result.contender.name, result.contender.kind, result.workloadKind]),
    ).toEqual([
      ['kruise-ts', 'kruise-ts', 'BroadcastJob'],
      ['native-daemonset', 'native', 'DaemonSet'],
    ]);
    // The BroadcastJob gate is off by default: the scenario turns it on.
    expect(run.result.results[0]?.contender.command).toContain('--feature-gates=BroadcastJob=true');
    const [ours, native] = run.result.results;
    for (const result of run.result.results) {
      expectComplete(result, 20, { preparedPods: false });
      expect(
        result.requests.byVerbAndResource.find((row) => row.verb === 'create' && row.resource === 'pods')?.count,
      ).toBe(20);
      expect(result.perNode).toMatchObject({ nodes: 20, podsCreated: 20, podsStarted: 20, nodesWithSeveralPods: 0 });
      expect(result.perNode?.allRunningSeconds).toBeGreaterThan(0);
    }
    // Every job pod ran its 500 ms and succeeded before the job completed; the DaemonSet's pods keep running.
    expect(ours?.perNode).toMatchObject({ podsSucceeded: 20 });
    expect(ours?.perNode?.allSucceededSeconds).toBeGreaterThanOrEqual(ours?.perNode?.allRunningSeconds ?? Infinity);
    expect(ours?.wallSeconds).toBeGreaterThan(0.5);
    expect(ours?.series.at(-1)).toMatchObject({ replicas: 20, ready: 0, available: 20 });
    expect(native?.perNode).toMatchObject({ podsSucceeded: 0 });
    expect(native?.perNode?.allSucceededSeconds).toBeUndefined();
    expect(native?.series.at(-1)).toMatchObject({ replicas: 20, ready: 20, available: 20 });
    expect(run.stdout).toContain('### A pod on every node');
    expect(run.stdout).toContain('| native-daemonset | DaemonSet | 20 | 20 / 20 / 0 |');
  });
});
