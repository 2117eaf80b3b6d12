import { describe, expect, it } from 'vitest';

import type { BenchResult, ContenderResult } from '../result.ts';
import { renderMarkdown } from './markdown.ts';
import { FIXTURE, withoutIdleFigures } from './test-fixture.ts';

const MIB = 1024 ** 2;

function contender(index: number): ContenderResult {
  return FIXTURE.results[index] ?? expect.fail(`fixture has no contender ${String(index)}`);
}

const EXPECTED = `## recreate · 1,000 pods

\`\`\`sh
npm run bench -- --scenario recreate --pods 1000
\`\`\`

**Settings:** 10 nodes, 110 pods/node · kubelet delays: start 500 ms, update 200 ms, delete 1,000 ms, 32 pod writes at once · client QPS 50, burst 100 · kube-scheduler without client-side limit · maxUnavailable 20% · Kubernetes v1.33.1 · timeout 600 s · machine: 2 CPUs (AMD EPYC 7B13), 8.00 GiB, Node.js v24.21.0, linux · started 2025-01-02T03:04:05.000Z

| contender | done? | wall time | writes/pod | pod writes/pod | requests | mutating p99 | peak RSS | peak heap | CPU s | idle CPU cores | RSS / 1,000 pods | event-loop p99 | reconcile p50/p99 | ready after |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| kruise-ts | yes | 12.3 s | 2.01 | 2.00 | 2,010 | 12.0 ms | 150 MiB | 80.0 MiB | 8.50 | 0.012 | 120 MiB | 4.20 ms | 2.00 ms / 20.0 ms | 3.20 s |
| native-deployment | no | 600 s (48.8×) | 4.02 (2.00×) | 3.50 (1.75×) | 4,020 (2.00×) | – | 300 MiB (2.00×) | – | 17.0 (2.00×) | 0.018 (1.50×) | 240 MiB (2.00×) | – | – | – |
| other\\|ctl \\<x\\&y\\> | yes | 6.15 s (0.50×) | 0.00 (0.00×) | 0.00 (0.00×) | 0 (0.00×) | – | 75.0 MiB (0.50×) | 40.0 MiB (0.50×) | 4.25 (0.50×) | – | – | – | – | 12.5 s |

Idle CPU: cores the contender used over 10 s with nothing changing, once the preparation had settled. RSS / 1,000 pods: resident memory at the end of that window, per 1,000 pods the preparation created. Ready after: from the start of the contender's process until its ready URL answered 2xx, or else its /metrics answered.

Ratios (×) are relative to the first contender, kruise-ts; lower is better for every figure.

**Errors:**

- native-deployment: timed out after 600 s

### Requests by verb and resource

| contender | verb | resource | requests |
| --- | --- | --- | ---: |
| kruise-ts | create | pods | 1,000 |
| kruise-ts | delete | pods | 1,000 |
| kruise-ts | update | clonesets/status | 10 |
| native-deployment | get | resource-00 | 100 |
| native-deployment | get | resource-01 | 90 |
| native-deployment | get | resource-02 | 80 |
| native-deployment | get | resource-03 | 70 |
| native-deployment | get | resource-04 | 60 |
| native-deployment | get | resource-05 | 50 |
| native-deployment | get | resource-06 | 40 |
| native-deployment | get | resource-07 | 30 |
| native-deployment | get | resource-08 | 20 |
| native-deployment | get | resource-09 | 10 |
| native-deployment | get | resource-10 | 1 |
| native-deployment | get | resource-11 | 1 |
| native-deployment | … | 2 more | 2 |
| other\\|ctl \\<x\\&y\\> | – | – | 0 |
`;

describe('renderMarkdown', () => {
  it('renders the fixture exactly', () => {
    expect(renderMarkdown(FIXTURE)).toBe(EXPECTED);
  });

  it('is deterministic', () => {
    expect(renderMarkdown(FIXTURE)).toBe(renderMarkdown(structuredClone(FIXTURE)));
  });

  it('adds the steady-state table for steady runs, with dashes for a contender without its figures', () => {
    const steady: BenchResult = {
      ...FIXTURE,
      settings: { ...FIXTURE.settings, scenario: 'steady', pods: 10_000 },
      results: [
        {
          ...contender(0),
          steady: {
            workloads: 100,
            podsPerWorkload: 100,
            idleCpuCoresUsed: 0.0123,
            idleSeconds: 60,
            heapBytesPer1000Pods: 2.5 * MIB,
            heapAfterFullGc: true,
            rssBytesPer1000Pods: 5 * MIB,
            churnedPods: 500,
            convergeSeconds: 4.56,
          },
        },
        contender(1),
        {
          ...contender(1),
          contender: { name: 'other', kind: 'external', command: 'other-controller' },
          steady: {
            workloads: 100,
            podsPerWorkload: 100,
            idleCpuCoresUsed: 0.02,
            idleSeconds: 60,
            heapBytesPer1000Pods: 3 * MIB,
            heapAfterFullGc: false,
            rssBytesPer1000Pods: 6 * MIB,
            churnedPods: 500,
            convergeSeconds: 5,
          },
        },
      ],
    };
    const markdown = renderMarkdown(steady);
    expect(markdown.startsWith('## steady · 10,000 pods\n')).toBe(true);
    expect(
      markdown.endsWith(
        [
          '### Steady state',
          '',
          '| contender | workloads × pods | idle CPU cores | heap / 1,000 pods | RSS / 1,000 pods | churned pods | converge time |',
          '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
          '| kruise-ts | 100 × 100 | 0.012 | 2.50 MiB | 5.00 MiB | 500 | 4.56 s |',
          '| native-deployment | – | – | – | – | – | – |',
          '| other | 100 × 100 | 0.020 | 3.00 MiB (garbage included) | 6.00 MiB | 500 | 5.00 s |',
          '',
        ].join('\n'),
      ),
    ).toBe(true);
  });

  it('adds the control plane at rest to steady runs, with a dash where a process was not measured', () => {
    const steady = {
      workloads: 10,
      podsPerWorkload: 10,
      idleCpuCoresUsed: 0.01,
      idleSeconds: 30,
      heapAfterFullGc: true,
      rssBytesPer1000Pods: 5 * MIB,
      churnedPods: 10,
      convergeSeconds: 1,
    };
    const markdown = renderMarkdown({
      ...FIXTURE,
      settings: { ...FIXTURE.settings, scenario: 'steady', pods: 100 },
      results: [
        {
          ...contender(0),
          steady: {
            ...steady,
            controlPlane: {
              'kube-apiserver': { cpuCores: 0.0312, rssBytes: 900 * MIB },
              etcd: { cpuCores: 0.004, rssBytes: 120 * MIB },
            },
          },
        },
        {
          ...contender(1),
          steady: { ...steady, controlPlane: { 'kube-apiserver': { cpuCores: 0.05, rssBytes: 1000 * MIB } } },
        },
      ],
    });
    expect(markdown).toContain(
      [
        '### The control plane at rest',
        '',
        '| contender | etcd | kube-apiserver |',
        '| --- | ---: | ---: |',
        '| kruise-ts | 0.004 · 120 MiB | 0.031 · 900 MiB |',
        '| native-deployment | – | 0.050 · 1,000 MiB |',
      ].join('\n'),
    );
  });

  it('adds the control plane CPU per contender, with a dash where a process was not measured', () => {
    const markdown = renderMarkdown({
      ...FIXTURE,
      results: [
        { ...contender(0), controlPlaneCpuSeconds: { 'kube-apiserver': 21.5, etcd: 3.25, kwok: 6 } },
        { ...contender(1), controlPlaneCpuSeconds: { 'kube-apiserver': 30, etcd: 4 } },
      ],
    });
    expect(
      markdown.endsWith(
        [
          '### CPU seconds in the measured window',
          '',
          '| contender | etcd | kube-apiserver | kwok | contender itself |',
          '| --- | ---: | ---: | ---: | ---: |',
          '| kruise-ts | 3.25 | 21.5 | 6.00 | 8.50 |',
          '| native-deployment | 4.00 | 30.0 | – | 17.0 |',
          '',
        ].join('\n'),
      ),
    ).toBe(true);
  });

  it("adds the simulator table: watches closed for falling behind and the simulated kubelets' failed requests", () => {
    const markdown = renderMarkdown({
      ...FIXTURE,
      results: [
        {
          ...contender(0),
          simulator: {
            watchClosures: [
              { resource: 'pods', labelSelector: '', fieldSelector: 'spec.nodeName!=', count: 11 },
              { resource: 'pods', labelSelector: '', fieldSelector: '', count: 2 },
            ],
            kubeletFailedRequests: [{ verb: 'patch', resource: 'pods/status', code: 422, count: 1426 }],
          },
        },
        { ...contender(1), simulator: { watchClosures: [], kubeletFailedRequests: [] } },
      ],
    });
    expect(
      markdown.endsWith(
        [
          '### The simulator in the measured window',
          '',
          "| contender | watches closed for falling behind | simulated kubelets' failed requests |",
          '| --- | --- | --- |',
          '| kruise-ts | 13: pods fields spec.nodeName!= ×11; pods (all) ×2 | 1,426: patch pods/status 422 ×1,426 |',
          '| native-deployment | 0 | 0 |',
          '',
        ].join('\n'),
      ),
    ).toBe(true);
  });

  it('adds the SidecarSet injection table for the phases whose pods went through the webhook, with dashes for what was not read', () => {
    const latency = { count: 1000, p50Seconds: 0.03, p99Seconds: 0.12, maxSeconds: 0.2 };
    const markdown = renderMarkdown({
      ...FIXTURE,
      results: [
        {
          ...contender(0),
          injection: {
            sidecarSet: false,
            podsWithSidecar: 0,
            podsWithoutSidecar: 1000,
            webhookLatency: { count: 1000, p50Seconds: 0.0021, p99Seconds: 0.0093, buckets: [] },
            podCreateLatency: latency,
          },
        },
        {
          ...contender(0),
          contender: { ...contender(0).contender, name: 'kruise-ts (SidecarSet)' },
          injection: {
            sidecarSet: true,
            podsWithSidecar: 999,
            podsWithoutSidecar: 1,
            webhookLatency: { count: 1000, p50Seconds: 0.0032, p99Seconds: 0.0175, buckets: [] },
            apiServerAdmission: {
              count: 1000,
              p50Seconds: 0.004,
              p99Seconds: 0.024,
              buckets: [
                { le: 0.005, count: 600 },
                { le: 0.025, count: 991 },
                { le: 0.1, count: 1000 },
              ],
            },
            referenceAdmission: {
              count: 1000,
              p50Seconds: 0.003,
              p99Seconds: 0.02,
              buckets: [
                { le: 0.005, count: 700 },
                { le: 0.025, count: 1000 },
              ],
            },
            podCreateLatency: { ...latency, count: 0 },
          },
        },
        contender(1),
      ],
    });
    expect(markdown).toContain(
      [
        '### SidecarSet injection',
        '',
        '| contender | SidecarSet | pods with / without sidecar | webhook requests | webhook p50 / p99 | API server admission p50 / p99 | no-op webhook: API server admission p50 / p99 | API server calls ≤ 25 ms: ours / no-op | pod create p50 / p99 |',
        '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        '| kruise-ts | no | 0 / 1,000 | 1,000 | 2.10 ms / 9.30 ms | – | – | – / – | 30.0 ms / 120 ms |',
        '| kruise-ts (SidecarSet) | yes | 999 / 1 | 1,000 | 3.20 ms / 17.5 ms | 4.00 ms / 24.0 ms | 3.00 ms / 20.0 ms | 99.1% / 100.0% | – |',
        '',
      ].join('\n'),
    );
    expect(renderMarkdown(FIXTURE)).not.toContain('SidecarSet injection');
  });

  it('adds the pod-on-every-node table of bcj-nodes: running with its ratio, succeeded, done, with dashes for what did not happen', () => {
    const markdown = renderMarkdown({
      ...FIXTURE,
      settings: { ...FIXTURE.settings, scenario: 'bcj-nodes', jobRunMs: 1000 },
      results: [
        {
          ...contender(0),
          workloadKind: 'BroadcastJob',
          wallSeconds: 14.2,
          perNode: {
            nodes: 1000,
            podsCreated: 1000,
            podsStarted: 1000,
            allRunningSeconds: 12,
            podsSucceeded: 1000,
            allSucceededSeconds: 13.5,
            nodesWithSeveralPods: 0,
          },
        },
        {
          ...contender(1),
          workloadKind: 'DaemonSet',
          perNode: {
            nodes: 1000,
            podsCreated: 1000,
            podsStarted: 1000,
            allRunningSeconds: 9,
            podsSucceeded: 0,
            nodesWithSeveralPods: 0,
          },
        },
      ],
    });
    expect(markdown).toContain('job pods run 1,000 ms');
    expect(markdown).toContain(
      [
        '### A pod on every node',
        '',
        "| contender | kind | nodes | pods created / ran / succeeded | every node's pod running | every node's pod succeeded | done (status) | nodes with 2+ pods |",
        '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
        '| kruise-ts | BroadcastJob | 1,000 | 1,000 / 1,000 / 1,000 | 12.0 s | 13.5 s | 14.2 s | 0 |',
        '| native-deployment | DaemonSet | 1,000 | 1,000 / 1,000 / 0 | 9.00 s (0.75×) | – | – | 0 |',
        '',
      ].join('\n'),
    );
    expect(renderMarkdown(FIXTURE)).not.toContain('A pod on every node');
  });

  it('says when a scenario that starts from no pods read its RSS per 1,000 pods: at the end of the change', () => {
    const scale: BenchResult = {
      ...FIXTURE,
      settings: { ...FIXTURE.settings, scenario: 'scale' },
      results: [
        {
          ...contender(0),
          idleCpuCores: 0.004,
          rssBytesPer1000Pods: 130 * MIB,
          rssBasis: { after: 'change', pods: 1000 },
        },
        {
          ...contender(1),
          idleCpuCores: 0.002,
          rssBytesPer1000Pods: 65 * MIB,
          rssBasis: { after: 'change', pods: 1000 },
        },
      ],
    };
    const markdown = renderMarkdown(scale);
    expect(markdown).toContain('| 8.50 | 0.004 | 130 MiB | 4.20 ms | 2.00 ms / 20.0 ms | 3.20 s |');
    expect(markdown).toContain('| 17.0 (2.00×) | 0.002 (0.50×) | 65.0 MiB (0.50×) | – | – | – |');
    expect(markdown).toContain(
      'RSS / 1,000 pods: resident memory once the change settled, per 1,000 pods it created (the scenario starts from none).',
    );
  });

  it('shows the steady idle figures of a result written before every scenario had them, and no note of how they were taken', () => {
    const steady = {
      workloads: 100,
      podsPerWorkload: 100,
      idleSeconds: 30,
      heapAfterFullGc: true,
      churnedPods: 1000,
      convergeSeconds: 4,
    };
    const older = withoutIdleFigures(contender(0));
    const markdown = renderMarkdown({
      ...FIXTURE,
      settings: { ...FIXTURE.settings, scenario: 'steady' },
      results: [{ ...older, steady: { ...steady, idleCpuCoresUsed: 0.01, rssBytesPer1000Pods: 5 * MIB } }],
    });
    expect(markdown).toContain('| 8.50 | 0.010 | 5.00 MiB | 4.20 ms | 2.00 ms / 20.0 ms | – |');
    expect(markdown).not.toContain('Idle CPU:');
    expect(markdown).not.toContain('Ready after:');
  });

  it('has no steady-state table, no ratio note and no errors for a single finished contender', () => {
    const markdown = renderMarkdown({ ...FIXTURE, results: [contender(0)] });
    expect(markdown).not.toContain('Steady state');
    expect(markdown).not.toContain('Ratios');
    expect(markdown).not.toContain('Errors');
    expect(markdown).not.toContain('CPU seconds in the measured window');
    expect(markdown).toContain(
      '| kruise-ts | yes | 12.3 s | 2.01 | 2.00 | 2,010 | 12.0 ms | 150 MiB | 80.0 MiB | 8.50 | 0.012 | 120 MiB | 4.20 ms | 2.00 ms / 20.0 ms | 3.20 s |',
    );
  });

  it('prints a missing p50 next to a present p99 and a latency of a second or more in seconds', () => {
    const slow: ContenderResult = {
      ...contender(0),
      metrics: { reconcileP99Seconds: 1.5 },
      requests: {
        ...contender(0).requests,
        mutatingLatency: { count: 3, p50Seconds: 1, p99Seconds: 2.25, maxSeconds: 3 },
      },
    };
    const markdown = renderMarkdown({ ...FIXTURE, results: [contender(0), slow] });
    expect(markdown).toContain(
      '| kruise-ts | yes | 12.3 s (1.00×) | 2.01 (1.00×) | 2.00 (1.00×) | 2,010 (1.00×) | 2.25 s (188×) | 150 MiB (1.00×) | – | 8.50 (1.00×) | 0.012 (1.00×) | 120 MiB (1.00×) | – | – / 1.50 s (75.0×) | 3.20 s |',
    );
  });
});
