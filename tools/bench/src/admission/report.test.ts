import { describe, expect, it } from 'vitest';

import { renderAdmissionMarkdown } from './report.ts';
import type { AdmissionPhase, AdmissionResult } from './result.ts';

const stats = (p50Ms: number, p99Ms: number): AdmissionPhase['client'] => ({
  count: 1000,
  p50Ms,
  p90Ms: p50Ms + 1,
  p99Ms,
  maxMs: p99Ms * 2,
  meanMs: p50Ms + 0.5,
});
const histogram = { count: 1000, p50Seconds: 0.0123, p99Seconds: 0.0241, p99AtMostSeconds: 0.025, buckets: [] };

function phase(name: AdmissionPhase['name'], p50Ms: number, webhook: boolean): AdmissionPhase {
  return {
    name,
    namespace: `ns-${name}`,
    launcherCommand: 'node kruise-ts.mjs',
    launcherReadySeconds: 2,
    validatingWebhooks: webhook ? ['kruise-ts-bench-cloneset/vcloneset.kruise-ts.io'] : [],
    loopSeconds: 10,
    client: stats(p50Ms, p50Ms * 3),
    server: stats(p50Ms - 1, p50Ms * 2),
    dryRunPodCreates: webhook ? stats(2, 6) : { count: 0, p50Ms: 0, p90Ms: 0, p99Ms: 0, maxMs: 0, meanMs: 0 },
    ...(webhook ? { apiServerWebhook: histogram } : {}),
    launcherWebhook: webhook ? histogram : { count: 0, buckets: [] },
    launcherMetrics: webhook
      ? { reconciles: 1020, reconcileP50Seconds: 0.004, reconcileP99Seconds: 0.02, eventLoopDelayP99Seconds: 0.031 }
      : {},
    loadAverage: { before: 1.5, after: 2.25 },
  };
}

const RESULT: AdmissionResult = {
  schemaVersion: 1,
  benchmark: 'admission-latency',
  startedAt: '2026-11-25T10:00:00.000Z',
  command: 'npm run bench -- admission',
  settings: {
    creates: 1000,
    warmup: 20,
    runtime: 'bundle',
    webhookName: 'vcloneset.kruise-ts.io',
    webhookPath: '/validate-apps-kruise-io-cloneset',
    image: 'nginx:1.25',
    kubernetesVersion: 'v1.34.10',
    baseline: 'no webhook',
  },
  machine: { cpus: 2, cpuModel: 'Xeon', memoryBytes: 1, nodeVersion: 'v24.21.0', platform: 'linux-x64' },
  phases: [phase('webhook', 12, true), phase('no webhook', 5, false)],
  webhookAdds: { p50Ms: 7, p90Ms: 7, p99Ms: 21, maxMs: 42, meanMs: 7 },
  webhookAddsServerSide: { p50Ms: 7, p90Ms: 7, p99Ms: 14, maxMs: 28, meanMs: 7 },
};

describe('renderAdmissionMarkdown', () => {
  const markdown = renderAdmissionMarkdown(RESULT);

  it('has a row per phase and the difference', () => {
    expect(markdown).toContain(
      '| webhook | 1,000 | 12.0 ms | 13.0 ms | 36.0 ms | 72.0 ms | 12.5 ms | 11.0 ms / 24.0 ms | 1.50 / 2.25 |',
    );
    expect(markdown).toContain(
      '| no webhook | 1,000 | 5.00 ms | 6.00 ms | 15.0 ms | 30.0 ms | 5.50 ms | 4.00 ms / 10.0 ms | 1.50 / 2.25 |',
    );
    expect(markdown).toContain(
      '| webhook adds |  | +7.00 ms | +7.00 ms | +21.0 ms | +42.0 ms | +7.00 ms | +7.00 ms / +14.0 ms |  |',
    );
  });

  it("has the webhook's side of the webhook phase, with the p99 bucket", () => {
    expect(markdown).toContain(
      '| kube-apiserver: apiserver\\_admission\\_webhook\\_admission\\_duration\\_seconds (CREATE) | 1,000 | 12.3 ms | 24.1 ms | ≤ 25.0 ms |',
    );
    expect(markdown).toContain(
      "| launcher's dry-run pod creates, server-side (audit log) | 1,000 | 2.00 ms | 6.00 ms | – |",
    );
  });

  it("has the launcher's own figures of both phases, a dash for what its /metrics did not tell", () => {
    expect(markdown).toContain('| webhook | 2.00 s | 1,020 | 4.00 ms / 20.0 ms | 31.0 ms | 1,000 |');
    expect(markdown).toContain('| no webhook | 2.00 s | – | – / – | – | 0 |');
  });

  it('names the settings and ends with a newline', () => {
    expect(markdown).toMatch(
      /^CloneSet creates, one at a time, timed by the client \(1,000 per phase after 20 warm-up creates/,
    );
    expect(markdown.endsWith('\n')).toBe(true);
  });
});
