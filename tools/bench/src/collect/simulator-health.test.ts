import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  isSimulatedKubelet,
  parseWatchClosure,
  readSimulatorFailures,
  readSimulatorHealth,
  readWatchClosures,
} from './simulator-health.ts';
import { auditLine } from './test-audit-line.ts';

// As kube-apiserver v1.34 logs them (one line each).
const KWOK_CLOSED =
  'I1122 05:04:42.580607   17173 cache_watcher.go:203] Forcing pods watcher close due to unresponsiveness: key: "/pods", labels: "", fields: "spec.nodeName!=". len(c.input) = 10, len(c.result) = 10, graceful = false';
const OURS_CLOSED =
  'I1122 05:04:42.487651   17173 cache_watcher.go:203] Forcing pods watcher close due to unresponsiveness: key: "/pods", labels: "apps.kruise.io/cloneset-instance-id", fields: "". len(c.input) = 10, len(c.result) = 10, graceful = false';
const OTHER_LINE =
  'I1122 05:04:43.000000   17173 httplog.go:134] "HTTP" verb="PATCH" URI="/api/v1/namespaces/bench/pods/x/status" latency="3ms"';
const KWOK = 'kwok/v0.8.0 (linux/amd64) kubernetes/$Format';

describe('parseWatchClosure', () => {
  it.each([
    ['kwok pod watch', KWOK_CLOSED, { resource: 'pods', labelSelector: '', fieldSelector: 'spec.nodeName!=' }],
    [
      'a label-selected watch',
      OURS_CLOSED,
      { resource: 'pods', labelSelector: 'apps.kruise.io/cloneset-instance-id', fieldSelector: '' },
    ],
    ['another log line', OTHER_LINE, undefined],
    ['an empty line', '', undefined],
  ])('%s', (_name, line, expected) => {
    expect(parseWatchClosure(line)).toEqual(expected);
  });
});

describe('isSimulatedKubelet', () => {
  it.each([
    [KWOK, true],
    ['kube-scheduler/v1.34.10 (linux/amd64) kubernetes/abc/scheduler', false],
    ['kruise-ts/0.0.0', false],
    [undefined, false],
  ])('%s → %s', (agent, expected) => {
    expect(isSimulatedKubelet(agent)).toBe(expected);
  });
});

describe('reading the window of the logs', () => {
  let dir: string;
  let apiServerLog: string;
  let auditLog: string;
  // Bytes before the window: a closure and a kwok failure that must not count.
  let apiServerLogFrom: number;
  let auditLogFrom: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'simulator-health-'));
    apiServerLog = join(dir, 'kube-apiserver.log');
    auditLog = join(dir, 'audit.log');
    const apiServerBefore = `${KWOK_CLOSED}\n`;
    apiServerLogFrom = Buffer.byteLength(apiServerBefore);
    await writeFile(
      apiServerLog,
      `${apiServerBefore}${[KWOK_CLOSED, OTHER_LINE, OURS_CLOSED, KWOK_CLOSED].join('\n')}\n`,
    );
    const auditBefore = `${auditLine({ verb: 'patch', resource: 'pods', subresource: 'status', agent: KWOK, code: 422 })}\n`;
    auditLogFrom = Buffer.byteLength(auditBefore);
    const window = [
      auditLine({ verb: 'patch', resource: 'pods', subresource: 'status', agent: KWOK, code: 422 }),
      auditLine({ verb: 'patch', resource: 'pods', subresource: 'status', agent: KWOK, code: 422 }),
      auditLine({ verb: 'delete', resource: 'pods', agent: KWOK, code: 404 }),
      // Not failures, or not the simulator's.
      auditLine({ verb: 'patch', resource: 'pods', subresource: 'status', agent: KWOK, code: 200 }),
      auditLine({ verb: 'patch', resource: 'pods', agent: 'kruise-ts/0.0.0', code: 409 }),
      auditLine({ verb: 'get', agent: KWOK, code: 404 }),
      'not json',
    ];
    await writeFile(auditLog, `${auditBefore}${window.join('\n')}\n`);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('counts the closures of each watcher in the range, most first', async () => {
    expect(await readWatchClosures(apiServerLog, { fromOffset: apiServerLogFrom })).toEqual([
      { resource: 'pods', labelSelector: '', fieldSelector: 'spec.nodeName!=', count: 2 },
      { resource: 'pods', labelSelector: 'apps.kruise.io/cloneset-instance-id', fieldSelector: '', count: 1 },
    ]);
    expect(await readWatchClosures(apiServerLog, { fromOffset: 0, toOffset: apiServerLogFrom })).toEqual([
      { resource: 'pods', labelSelector: '', fieldSelector: 'spec.nodeName!=', count: 1 },
    ]);
  });

  it('reads nothing from an empty range (nothing logged in the window)', async () => {
    expect(await readWatchClosures(apiServerLog, { fromOffset: apiServerLogFrom, toOffset: apiServerLogFrom })).toEqual(
      [],
    );
    expect(await readSimulatorFailures(auditLog, { fromOffset: auditLogFrom, toOffset: auditLogFrom })).toEqual([]);
  });

  it("counts only the simulated kubelets' failed resource requests in the range", async () => {
    expect(await readSimulatorFailures(auditLog, { fromOffset: auditLogFrom })).toEqual([
      { verb: 'patch', resource: 'pods/status', code: 422, count: 2 },
      { verb: 'delete', resource: 'pods', code: 404, count: 1 },
    ]);
  });

  it('reads both for one window', async () => {
    const health = await readSimulatorHealth({
      apiServerLog,
      apiServerLogRange: { fromOffset: apiServerLogFrom },
      auditLog,
      auditLogRange: { fromOffset: auditLogFrom },
    });
    expect(health.watchClosures.map((row) => row.count)).toEqual([2, 1]);
    expect(health.kubeletFailedRequests.map((row) => row.count)).toEqual([2, 1]);
  });
});
