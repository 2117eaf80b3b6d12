import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { parseAuditEvent } from '../collect/index.ts';
import type { AuditEvent } from '../collect/index.ts';
import { auditLine, CONTENDER } from '../collect/test-audit-line.ts';
import type { EventInput } from '../collect/test-audit-line.ts';
import { isLauncherDryRun, isLoopCreate, readAuditWindow } from './audit-window.ts';

// The test lines' objects are in namespace `bench`.
const SELECTORS = { namespace: 'bench', loopUserAgent: 'kruise-ts-bench-admission', launcherUsername: CONTENDER };
const ADMIN = 'admin';
const LOOP_AGENT = 'kruise-ts-bench-admission/0.0.0';

function event(input: EventInput): AuditEvent {
  const parsed = parseAuditEvent(auditLine(input));
  if (parsed === undefined) {
    throw new Error('the test line does not parse');
  }
  return parsed;
}

describe('isLoopCreate', () => {
  it.each([
    {
      name: "the loop's create",
      input: { verb: 'create', resource: 'clonesets', user: ADMIN, agent: LOOP_AGENT },
      expected: true,
    },
    {
      name: 'a dry run (the probe)',
      input: { verb: 'create', resource: 'clonesets', user: ADMIN, agent: LOOP_AGENT, query: 'dryRun=All' },
      expected: false,
    },
    {
      name: 'another client',
      input: { verb: 'create', resource: 'clonesets', user: ADMIN, agent: 'kubectl/v1.34' },
      expected: false,
    },
    {
      name: 'a status write',
      input: { verb: 'update', resource: 'clonesets', subresource: 'status', user: CONTENDER, agent: LOOP_AGENT },
      expected: false,
    },
    { name: 'a pod', input: { verb: 'create', resource: 'pods', user: ADMIN, agent: LOOP_AGENT }, expected: false },
  ])('$name ⇒ $expected', ({ input, expected }) => {
    expect(isLoopCreate(event(input), SELECTORS)).toBe(expected);
  });

  it('only in the loop namespace', () => {
    expect(
      isLoopCreate(event({ verb: 'create', resource: 'clonesets', agent: LOOP_AGENT }), {
        ...SELECTORS,
        namespace: 'other',
      }),
    ).toBe(false);
  });
});

describe('isLauncherDryRun', () => {
  it.each([
    {
      name: "the launcher's dry-run pod create",
      input: { verb: 'create', resource: 'pods', query: 'dryRun=All' },
      expected: true,
    },
    {
      name: 'with another parameter first',
      input: { verb: 'create', resource: 'pods', query: 'fieldManager=x&dryRun=All' },
      expected: true,
    },
    { name: 'a real pod create', input: { verb: 'create', resource: 'pods' }, expected: false },
    {
      name: "someone else's dry run",
      input: { verb: 'create', resource: 'pods', query: 'dryRun=All', user: ADMIN },
      expected: false,
    },
    {
      name: 'a dry-run claim',
      input: { verb: 'create', resource: 'persistentvolumeclaims', query: 'dryRun=All' },
      expected: false,
    },
  ])('$name ⇒ $expected', ({ input, expected }) => {
    expect(isLauncherDryRun(event(input), SELECTORS)).toBe(expected);
  });
});

describe('readAuditWindow', () => {
  const directory = mkdtemp(path.join(os.tmpdir(), 'admission-audit-'));
  afterAll(async () => {
    await rm(await directory, { recursive: true, force: true });
  });

  it("times the loop's creates and the launcher's dry runs in the byte range only", async () => {
    const before = `${auditLine({ verb: 'create', resource: 'clonesets', user: ADMIN, agent: LOOP_AGENT, micros: 900_000 })}\n`;
    const window = [
      auditLine({ verb: 'create', resource: 'clonesets', user: ADMIN, agent: LOOP_AGENT, micros: 4_000 }),
      auditLine({ verb: 'create', resource: 'clonesets', user: ADMIN, agent: LOOP_AGENT, micros: 2_000 }),
      auditLine({
        verb: 'create',
        resource: 'clonesets',
        user: ADMIN,
        agent: LOOP_AGENT,
        micros: 7_000,
        stage: 'ResponseStarted',
      }),
      auditLine({ verb: 'create', resource: 'pods', query: 'dryRun=All', micros: 1_500 }),
      auditLine({ verb: 'patch', resource: 'clonesets', subresource: 'status', micros: 3_000 }),
      'not json',
    ].join('\n');
    const file = path.join(await directory, 'audit.log');
    await writeFile(file, `${before}${window}\n`);
    const figures = await readAuditWindow(file, { fromOffset: Buffer.byteLength(before) }, SELECTORS);
    expect(figures.cloneSetCreates).toEqual({ count: 2, p50Ms: 2, p90Ms: 4, p99Ms: 4, maxMs: 4, meanMs: 3 });
    expect(figures.dryRunPodCreates).toEqual({ count: 1, p50Ms: 1.5, p90Ms: 1.5, p99Ms: 1.5, maxMs: 1.5, meanMs: 1.5 });
  });
});
