import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { podWriteTime, waitForQuietPods } from './quiet-period.ts';
import { auditLine as sharedAuditLine } from './test-audit-line.ts';

interface LineOptions {
  readonly subresource?: string;
  readonly stage?: string;
  /** When the request was received (milliseconds since the epoch); now by default. It completes 250 µs later. */
  readonly at?: number;
}

/** An audit log line of a request (the shared fixture, dated now unless told). */
function auditLine(verb: string, resource: string, { subresource, stage, at = Date.now() }: LineOptions = {}): string {
  return sharedAuditLine({
    verb,
    resource,
    receivedAt: at,
    micros: 250,
    ...(subresource === undefined ? {} : { subresource }),
    ...(stage === undefined ? {} : { stage }),
  });
}

describe('podWriteTime', () => {
  const at = Date.parse('2026-11-22T01:02:03.456Z');
  it.each([
    ['a pod status patch', auditLine('patch', 'pods', { subresource: 'status', at }), at + 0.25],
    ['a pod deletion', auditLine('delete', 'pods', { at }), at + 0.25],
    ['a binding', auditLine('create', 'pods', { subresource: 'binding', at }), at + 0.25],
    ['a pod watch', auditLine('watch', 'pods'), undefined],
    ['a pod get', auditLine('get', 'pods'), undefined],
    ['a lease update', auditLine('update', 'leases'), undefined],
    [
      'a write not completed yet',
      auditLine('patch', 'pods', { subresource: 'status', stage: 'ResponseStarted' }),
      undefined,
    ],
    ['no JSON', '{"pods"', undefined],
  ])('%s', (_name, line, expected) => {
    expect(podWriteTime(line)).toBe(expected);
  });
});

describe('waitForQuietPods', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quiet-period-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns once no pod write came for the quiet period, counting the writes seen (other requests do not count)', async () => {
    const file = join(dir, 'busy.log');
    await writeFile(file, `${auditLine('patch', 'pods', { subresource: 'status' })}\n`);
    const appending = (async () => {
      for (let i = 0; i < 4; i++) {
        await new Promise((resolve) => setTimeout(resolve, 60));
        await appendFile(
          file,
          `${auditLine('patch', 'pods', { subresource: 'status' })}\n${auditLine('update', 'leases')}\n`,
        );
      }
    })();
    const outcome = await waitForQuietPods(file, 0, { quietMs: 200, timeoutMs: 10_000, pollMs: 20 });
    await appending;
    expect(outcome.quiet).toBe(true);
    expect(outcome.podWritesSeen).toBe(5);
    // The last write came after ~240 ms, so the quiet period ended no sooner than ~440 ms.
    expect(outcome.waitedSeconds).toBeGreaterThanOrEqual(0.4);
  });

  it('dates writes by the log, so writes long past do not make it wait', async () => {
    const file = join(dir, 'old.log');
    await writeFile(file, `${auditLine('patch', 'pods', { subresource: 'status', at: Date.now() - 60_000 })}\n`);
    const outcome = await waitForQuietPods(file, 0, { quietMs: 5_000, timeoutMs: 10_000, pollMs: 20 });
    expect(outcome).toMatchObject({ quiet: true, podWritesSeen: 1 });
    expect(outcome.waitedSeconds).toBeLessThan(5);
  });

  it('with no pod write in the log at all, waits the quiet period from its start', async () => {
    const file = join(dir, 'empty.log');
    await writeFile(file, `${auditLine('update', 'leases')}\n`);
    const outcome = await waitForQuietPods(file, 0, { quietMs: 200, timeoutMs: 5_000, pollMs: 10 });
    expect(outcome).toMatchObject({ quiet: true, podWritesSeen: 0 });
    expect(outcome.waitedSeconds).toBeGreaterThanOrEqual(0.2);
  });

  it('reads from the offset given, and a line still being written waits for its newline', async () => {
    const file = join(dir, 'offset.log');
    const before = `${auditLine('patch', 'pods', { subresource: 'status' })}\n`;
    await writeFile(file, `${before}${auditLine('create', 'pods').slice(0, 30)}`);
    const outcome = await waitForQuietPods(file, Buffer.byteLength(before), {
      quietMs: 50,
      timeoutMs: 5_000,
      pollMs: 10,
    });
    expect(outcome).toMatchObject({ quiet: true, podWritesSeen: 0 });
  });

  it('gives up after the timeout and says it was not quiet', async () => {
    const file = join(dir, 'never-quiet.log');
    await writeFile(file, '');
    const stop = new AbortController();
    const appending = (async () => {
      while (!stop.signal.aborted) {
        await appendFile(file, `${auditLine('delete', 'pods')}\n`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const outcome = await waitForQuietPods(file, 0, { quietMs: 500, timeoutMs: 300, pollMs: 20 });
    stop.abort();
    await appending;
    expect(outcome.quiet).toBe(false);
    expect(outcome.podWritesSeen).toBeGreaterThan(0);
  });
});
