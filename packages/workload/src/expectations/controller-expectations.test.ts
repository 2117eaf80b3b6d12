import { createLogger, createRuntimeMetrics } from '@kruise-ts/controller-runtime';
import { FakeClock } from '@kruise-ts/controller-runtime/testing';
import { describe, expect, it } from 'vitest';

import {
  controllerExpectations,
  resourceVersionExpectationsFor,
  scaleExpectationsFor,
} from './controller-expectations.ts';
import type { ExpectationsHost } from './controller-expectations.ts';

type TakenTest = (ownerKey: string) => boolean;

/** A manager's part the stores use: its registry, a logger whose lines are kept, and its bucket takeovers. */
function host(): { host: ExpectationsHost; lines: Record<string, unknown>[]; take: (taken: TakenTest) => void } {
  const lines: Record<string, unknown>[] = [];
  const listeners: ((taken: TakenTest) => void)[] = [];
  const logger = createLogger({
    level: 'info',
    destination: {
      write: (line: string) => {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  });
  return {
    host: {
      metrics: createRuntimeMetrics(),
      logger,
      onOwnersTaken: (listener) => {
        listeners.push(listener);
      },
    },
    lines,
    take: (taken) => {
      for (const listener of listeners) {
        listener(taken);
      }
    },
  };
}

describe('controller expectations', () => {
  it('logs and counts a scale expectation that times out, and the owner is unblocked', async () => {
    const { host: manager, lines } = host();
    const clock = new FakeClock();
    const expectations = scaleExpectationsFor(manager, 'cloneset', { timeoutMs: 1000, clock });
    expectations.expect('ns/cs', 'create', 'cs-abcde');
    expect(expectations.satisfied('ns/cs').satisfied).toBe(false);
    clock.advance(1000);
    expect(expectations.satisfied('ns/cs')).toMatchObject({ satisfied: true, timedOut: true });

    const metrics = await manager.metrics.registry.metrics();
    expect(metrics).toContain('kruise_ts_expectations_timeouts_total{controller="cloneset",kind="scale"} 1');
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        controller: 'cloneset',
        owner: 'ns/cs',
        action: 'create',
        pods: ['cs-abcde'],
        msg: expect.stringContaining('never showed 1 creations of ns/cs') as unknown,
      }),
    );
  });

  it('exports the owners waiting on expectations, the oldest wait and how long waits took, per controller and kind', async () => {
    const { host: manager } = host();
    const clock = new FakeClock();
    const { scaleExpectations: scale, resourceVersionExpectations: versions } = controllerExpectations(
      manager,
      'cloneset',
      { timeoutMs: 60_000, clock },
    );
    scale.expect('ns/cs', 'create', 'cs-abcde');
    scale.expect('ns/other', 'delete', 'other-xyz12');
    versions.expect({ metadata: { uid: 'u1', namespace: 'ns', name: 'cs-fghij', resourceVersion: '10' } });
    clock.advance(2500);
    scale.observe('ns/other', 'delete', 'other-xyz12');
    const metrics = await manager.metrics.registry.metrics();
    expect(metrics).toContain('kruise_ts_expectations_unsatisfied{controller="cloneset",kind="scale"} 1');
    expect(metrics).toContain(
      'kruise_ts_expectations_oldest_unsatisfied_seconds{controller="cloneset",kind="scale"} 2.5',
    );
    expect(metrics).toContain('kruise_ts_expectations_unsatisfied{controller="cloneset",kind="resource_version"} 1');
    expect(metrics).toContain(
      'kruise_ts_expectations_oldest_unsatisfied_seconds{controller="cloneset",kind="resource_version"} 2.5',
    );
    expect(metrics).toContain(
      'kruise_ts_expectations_wait_duration_seconds_bucket{le="5",controller="cloneset",kind="scale"} 1',
    );
  });

  it('logs and counts a resource-version expectation that times out', async () => {
    const { host: manager, lines } = host();
    const clock = new FakeClock();
    const expectations = resourceVersionExpectationsFor(manager, 'cloneset', { timeoutMs: 500, clock });
    const pod = { metadata: { uid: 'u1', resourceVersion: '10' } };
    expectations.expect(pod);
    expect(expectations.isSatisfied({ metadata: { uid: 'u1', resourceVersion: '9' } })).toBe(false);
    clock.advance(500);
    expect(expectations.isSatisfied({ metadata: { uid: 'u1', resourceVersion: '9' } })).toBe(true);
    expect(await manager.metrics.registry.metrics()).toContain(
      'kruise_ts_expectations_timeouts_total{controller="cloneset",kind="resource_version"} 1',
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', controller: 'cloneset', object: 'u1', expected: '10', observed: '9' }),
    );
  });

  it('forgets the scale expectations of owners whose bucket this replica takes, and only those', () => {
    const { host: manager, take } = host();
    const expectations = scaleExpectationsFor(manager, 'cloneset');
    expectations.expect('ns/taken', 'create', 'taken-1');
    expectations.expect('ns/kept', 'delete', 'kept-1');
    take((key) => key === 'ns/taken');
    expect(expectations.satisfied('ns/taken').satisfied).toBe(true);
    expect(expectations.satisfied('ns/kept').pending.delete).toEqual(['kept-1']);
  });

  it('lets two controllers of one manager report on its one registry', async () => {
    const { host: manager } = host();
    scaleExpectationsFor(manager, 'cloneset').expect('ns/a', 'create', 'a-1');
    scaleExpectationsFor(manager, 'broadcastjob').expect('ns/b', 'create', 'b-1');
    const metrics = await manager.metrics.registry.metrics();
    expect(metrics).toContain('kruise_ts_expectations_unsatisfied{controller="cloneset",kind="scale"} 1');
    expect(metrics).toContain('kruise_ts_expectations_unsatisfied{controller="broadcastjob",kind="scale"} 1');
  });
});
