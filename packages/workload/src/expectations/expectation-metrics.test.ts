import { describe, expect, it } from 'vitest';

import { FakeClock } from '@kruise-ts/controller-runtime/testing';
import type { ExpectationBacklog, ExpectationMetrics } from './expectation-metrics.ts';
import { ResourceVersionExpectations } from './resource-version-expectations.ts';
import { ScaleExpectations } from './scale-expectations.ts';

/** Records what a store reports, as the Prometheus provider would receive it. */
class RecordingMetrics implements ExpectationMetrics {
  readonly waits: number[] = [];
  #read: () => ExpectationBacklog = () => ({ waiting: -1, oldestWaitingMs: -1 });

  settled(seconds: number): void {
    this.waits.push(seconds);
  }

  bindBacklog(read: () => ExpectationBacklog): void {
    this.#read = read;
  }

  backlog(): ExpectationBacklog {
    return this.#read();
  }
}

function scale(timeoutMs = 60_000): { clock: FakeClock; metrics: RecordingMetrics; expectations: ScaleExpectations } {
  const clock = new FakeClock();
  const metrics = new RecordingMetrics();
  return { clock, metrics, expectations: new ScaleExpectations({ timeoutMs, clock, metrics }) };
}

describe('ScaleExpectations metrics', () => {
  it('shows the owners waiting and the oldest wait, counted from the first expectation raised', () => {
    const { clock, metrics, expectations } = scale();
    expect(metrics.backlog()).toEqual({ waiting: 0, oldestWaitingMs: 0 });
    expectations.expect('ns/a', 'create', 'a-1');
    clock.advance(4000);
    expectations.expect('ns/b', 'delete', 'b-1');
    expectations.expect('ns/a', 'create', 'a-2');
    clock.advance(1000);
    expect(metrics.backlog()).toEqual({ waiting: 2, oldestWaitingMs: 5000 });
    expectations.observe('ns/a', 'create', 'a-1');
    // a-2 still waits: the owner's wait goes on from its first name.
    expect(metrics.backlog()).toEqual({ waiting: 2, oldestWaitingMs: 5000 });
    expectations.observe('ns/a', 'create', 'a-2');
    expect(metrics.backlog()).toEqual({ waiting: 1, oldestWaitingMs: 1000 });
    expect(metrics.waits).toEqual([5]);
  });

  it('reports a wait ended by the timeout, and none for a deleted owner', () => {
    const { clock, metrics, expectations } = scale(10_000);
    expectations.expect('ns/a', 'create', 'a-1');
    expectations.expect('ns/gone', 'create', 'g-1');
    expectations.delete('ns/gone');
    expectations.satisfied('ns/a');
    clock.advance(10_000);
    expect(expectations.satisfied('ns/a').timedOut).toBe(true);
    expect(metrics.waits).toEqual([10]);
    expect(metrics.backlog()).toEqual({ waiting: 0, oldestWaitingMs: 0 });
  });
});

describe('ResourceVersionExpectations metrics', () => {
  const pod = (
    resourceVersion: string,
    uid = 'u1',
  ): { metadata: { uid: string; namespace: string; name: string; resourceVersion: string } } => ({
    metadata: { uid, namespace: 'ns', name: `pod-${uid}`, resourceVersion },
  });

  it('shows the objects waiting for the cache, and how long each waited once the cache caught up', () => {
    const clock = new FakeClock();
    const metrics = new RecordingMetrics();
    const expectations = new ResourceVersionExpectations({ timeoutMs: 60_000, clock, metrics });
    expectations.expect(pod('10'));
    clock.advance(200);
    expectations.expect(pod('5', 'u2'));
    // A later write of the same object keeps the wait of the first one.
    expectations.expect(pod('12'));
    clock.advance(300);
    expect(metrics.backlog()).toEqual({ waiting: 2, oldestWaitingMs: 500 });
    expectations.observe(pod('11'));
    expect(metrics.waits).toEqual([]);
    expectations.observe(pod('12'));
    expect(expectations.isSatisfied(pod('6', 'u2'))).toBe(true);
    expect(metrics.waits).toEqual([0.5, 0.3]);
    expect(metrics.backlog()).toEqual({ waiting: 0, oldestWaitingMs: 0 });
  });
});
