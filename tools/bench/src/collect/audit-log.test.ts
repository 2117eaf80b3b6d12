import { mkdtemp, rm, stat, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadYaml } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  auditPolicyYaml,
  byUserAgentSuffix,
  byUsername,
  createAuditAggregator,
  parseAuditEvent,
  readAuditLog,
  resourceName,
} from './audit-log.ts';
import type { AuditEvent } from './audit-log.ts';
import { auditLine as line, CONTENDER } from './test-audit-line.ts';
import type { EventInput } from './test-audit-line.ts';

const KCM = 'system:kube-controller-manager';
const KCM_AGENT = 'kube-controller-manager/v1.33.1 (linux/amd64) kubernetes/8adc0f0';

/** A parsed event for the selectors. */
function event(input: EventInput): AuditEvent {
  const parsed = parseAuditEvent(line(input));
  if (parsed === undefined) {
    throw new Error('fixture is no audit event');
  }
  return parsed;
}

describe('parseAuditEvent', () => {
  it('keeps the fields it does not check', () => {
    const parsed = parseAuditEvent(line({ verb: 'get', resource: 'pods' }));
    expect(parsed).toMatchObject({ verb: 'get', auditID: '6f0c5b7e-0000-4000-8000-000000000000', level: 'Metadata' });
  });

  it.each([
    { name: 'not JSON', text: 'I0501 12:00:00 some klog line' },
    { name: 'a JSON array', text: '[1, 2]' },
    { name: 'a JSON string', text: '"Event"' },
    { name: 'an event without a verb', text: JSON.stringify({ stage: 'ResponseComplete', user: {} }) },
    { name: 'another kind', text: line({ verb: 'get' }).replace('"kind":"Event"', '"kind":"EventList"') },
  ])('is undefined for $name', ({ text }) => {
    expect(parseAuditEvent(text)).toBeUndefined();
  });
});

describe('resourceName', () => {
  it.each([
    { input: { verb: 'get', resource: 'pods' }, name: 'pods' },
    { input: { verb: 'patch', resource: 'pods', subresource: 'status' }, name: 'pods/status' },
    { input: { verb: 'update', resource: 'clonesets', subresource: '' }, name: 'clonesets' },
    { input: { verb: 'get' }, name: undefined },
  ])('$input ⇒ $name', ({ input, name }) => {
    expect(resourceName(event(input))).toBe(name);
  });
});

describe('selectors', () => {
  it.each([
    { input: { verb: 'get', user: CONTENDER }, selected: true },
    { input: { verb: 'get', user: KCM }, selected: false },
  ])('byUsername: $input.user ⇒ $selected', ({ input, selected }) => {
    expect(byUsername(CONTENDER)(event(input))).toBe(selected);
  });

  const deployments = byUserAgentSuffix(['/deployment-controller', '/replicaset-controller']);
  it.each([
    { agent: `${KCM_AGENT}/deployment-controller`, selected: true },
    { agent: `${KCM_AGENT}/replicaset-controller`, selected: true },
    { agent: `${KCM_AGENT}/statefulset-controller`, selected: false },
    { agent: KCM_AGENT, selected: false },
    { agent: 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0', selected: false },
  ])('byUserAgentSuffix: $agent ⇒ $selected', ({ agent, selected }) => {
    expect(deployments(event({ verb: 'get', user: KCM, agent }))).toBe(selected);
  });

  it('byUserAgentSuffix rejects an event without a user agent', () => {
    const parsed = parseAuditEvent(line({ verb: 'get' }).replace('"userAgent":"kruise-ts/0.0.0",', ''));
    expect(parsed).toBeDefined();
    expect(parsed === undefined ? true : deployments(parsed)).toBe(false);
  });
});

describe('createAuditAggregator', () => {
  it('counts the selected completed resource requests by verb and resource', () => {
    const aggregator = createAuditAggregator(byUsername(CONTENDER));
    const lines = [
      line({ verb: 'create', resource: 'pods', micros: 4000 }),
      line({ verb: 'create', resource: 'pods', micros: 2000 }),
      line({ verb: 'patch', resource: 'pods', subresource: 'status', micros: 3000 }),
      line({ verb: 'update', resource: 'clonesets', subresource: 'status', micros: 1000, code: 409 }),
      line({ verb: 'delete', resource: 'pods', micros: 5000 }),
      line({ verb: 'get', resource: 'clonesets', micros: 300 }),
      line({ verb: 'list', resource: 'pods', micros: 900 }),
      line({ verb: 'watch', resource: 'pods', micros: 999_999 }),
      // Not counted: another user, another stage, a non-resource URL.
      line({ verb: 'create', resource: 'pods', user: KCM }),
      line({ verb: 'create', resource: 'pods', stage: 'ResponseStarted' }),
      line({ verb: 'get' }),
    ];
    lines.forEach(aggregator.add);
    expect(aggregator.result(2)).toEqual({
      byVerbAndResource: [
        { verb: 'create', resource: 'pods', count: 2 },
        { verb: 'delete', resource: 'pods', count: 1 },
        { verb: 'get', resource: 'clonesets', count: 1 },
        { verb: 'list', resource: 'pods', count: 1 },
        { verb: 'patch', resource: 'pods/status', count: 1 },
        { verb: 'update', resource: 'clonesets/status', count: 1 },
        { verb: 'watch', resource: 'pods', count: 1 },
      ],
      total: 8,
      writes: 5,
      writesPerPod: 2.5,
      podWritesPerPod: 2,
      mutatingLatency: { count: 5, p50Seconds: 0.003, p99Seconds: 0.005, maxSeconds: 0.005 },
      readLatency: { count: 2, p50Seconds: 0.0003, p99Seconds: 0.0009, maxSeconds: 0.0009 },
    });
    expect(aggregator.ignoredLines).toBe(0);
  });

  it('counts lines that are no events as ignored and skips blank lines', () => {
    const aggregator = createAuditAggregator(() => true);
    ['', '   ', 'not json', '{"truncated":', line({ verb: 'get', resource: 'pods' }), '{}'].forEach(aggregator.add);
    expect(aggregator.ignoredLines).toBe(3);
    expect(aggregator.result(1).total).toBe(1);
  });

  it.each([
    { writes: 3, pods: 0, writesPerPod: 0 },
    { writes: 3, pods: 3, writesPerPod: 1 },
    { writes: 2, pods: 3, writesPerPod: 0.67 },
    { writes: 1, pods: 8, writesPerPod: 0.13 },
  ])('writes/pod of $writes writes over $pods pods ⇒ $writesPerPod', ({ writes, pods, writesPerPod }) => {
    const aggregator = createAuditAggregator(() => true);
    for (let index = 0; index < writes; index += 1) {
      aggregator.add(line({ verb: 'patch', resource: 'pods' }));
    }
    expect(aggregator.result(pods).writesPerPod).toBe(writesPerPod);
  });

  it('reports empty figures when nothing was selected', () => {
    const aggregator = createAuditAggregator(() => false);
    aggregator.add(line({ verb: 'create', resource: 'pods' }));
    const empty = { count: 0, p50Seconds: 0, p99Seconds: 0, maxSeconds: 0 };
    expect(aggregator.result(10)).toEqual({
      byVerbAndResource: [],
      total: 0,
      writes: 0,
      writesPerPod: 0,
      podWritesPerPod: 0,
      mutatingLatency: empty,
      readLatency: empty,
    });
  });

  it('counts a dry run apart, never as a write (it stores nothing)', () => {
    const aggregator = createAuditAggregator(() => true);
    aggregator.add(line({ verb: 'create', resource: 'pods', query: 'dryRun=All' }));
    aggregator.add(line({ verb: 'create', resource: 'pods' }));
    const result = aggregator.result(1);
    expect(result.writes).toBe(1);
    expect(result.total).toBe(2);
    expect(result.byVerbAndResource).toContainEqual({ verb: 'create (dry run)', resource: 'pods', count: 1 });
  });

  it('counts a request whose timestamps do not parse, without a latency', () => {
    const aggregator = createAuditAggregator(() => true);
    aggregator.add(line({ verb: 'create', resource: 'pods' }).replace('2024-05-01T12:00:00.000000Z', 'yesterday'));
    const result = aggregator.result(1);
    expect(result.writes).toBe(1);
    expect(result.mutatingLatency.count).toBe(0);
  });

  it('takes nearest-rank percentiles over many requests', () => {
    const aggregator = createAuditAggregator(() => true);
    // 1..1000 µs, in a scrambled order.
    for (let index = 0; index < 1000; index += 1) {
      aggregator.add(line({ verb: 'update', resource: 'pods', micros: ((index * 7919) % 1000) + 1 }));
    }
    expect(aggregator.result(1000).mutatingLatency).toEqual({
      count: 1000,
      p50Seconds: 0.0005,
      p99Seconds: 0.00099,
      maxSeconds: 0.001,
    });
  });
});

describe('readAuditLog', () => {
  let directory = '';
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'bench-audit-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads only what was written after the offset', async () => {
    const file = join(directory, 'audit.log');
    await writeFile(
      file,
      `${line({ verb: 'create', resource: 'pods' })}\n${line({ verb: 'create', resource: 'pods' })}\n`,
    );
    const { size } = await stat(file);
    await appendFile(
      file,
      `${line({ verb: 'patch', resource: 'pods' })}\r\n${line({ verb: 'get', resource: 'pods' })}\n`,
    );
    const window = await readAuditLog(file, () => true, { podsTouched: 1, fromOffset: size });
    expect(window.byVerbAndResource).toEqual([
      { verb: 'get', resource: 'pods', count: 1 },
      { verb: 'patch', resource: 'pods', count: 1 },
    ]);
    expect(window.writesPerPod).toBe(1);
    const whole = await readAuditLog(file, () => true, { podsTouched: 1 });
    expect(whole.total).toBe(4);
    const head = await readAuditLog(file, () => true, { podsTouched: 1, toOffset: size });
    expect(head.byVerbAndResource).toEqual([{ verb: 'create', resource: 'pods', count: 2 }]);
  });

  it('reads nothing from an offset at the end of the file', async () => {
    const file = join(directory, 'end.log');
    const text = `${line({ verb: 'create', resource: 'pods' })}\n`;
    await writeFile(file, text);
    const result = await readAuditLog(file, () => true, { podsTouched: 1, fromOffset: Buffer.byteLength(text) });
    expect(result.total).toBe(0);
    const empty = await readAuditLog(file, () => true, {
      podsTouched: 1,
      fromOffset: Buffer.byteLength(text),
      toOffset: Buffer.byteLength(text),
    });
    expect(empty.total).toBe(0);
  });

  it('rejects when the file does not exist', async () => {
    await expect(readAuditLog(join(directory, 'missing.log'), () => true, { podsTouched: 1 })).rejects.toThrow(
      /ENOENT/,
    );
  });
});

describe('auditPolicyYaml', () => {
  interface Policy {
    apiVersion: string;
    kind: string;
    omitStages: string[];
    rules: { level: string; nonResourceURLs?: string[]; resources?: unknown }[];
  }

  it('logs Metadata for resource requests and nothing for non-resource URLs', () => {
    const policy = loadYaml<Policy>(auditPolicyYaml());
    expect(policy).toEqual({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      omitStages: ['RequestReceived'],
      rules: [{ level: 'None', nonResourceURLs: ['*'] }, { level: 'Metadata' }],
    });
  });
});
