import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';

import { expectationCollectorsOf } from './expectation-collectors.ts';
import type { ExpectationCollectors } from './expectation-collectors.ts';

interface Expected {
  readonly member: Exclude<keyof ExpectationCollectors, 'forStore'>;
  readonly name: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  readonly labels: readonly string[];
  readonly help: string;
  readonly buckets?: readonly number[];
}

/** The names dashboards and alerts read, transcribed independently of the implementation. */
const EXPECTED: readonly Expected[] = [
  {
    member: 'timeouts',
    name: 'kruise_ts_expectations_timeouts_total',
    type: 'counter',
    labels: ['controller', 'kind'],
    help: 'Total number of expectations that stayed unsatisfied longer than the expectation timeout and were dropped, per controller and kind',
  },
  {
    member: 'unsatisfied',
    name: 'kruise_ts_expectations_unsatisfied',
    type: 'gauge',
    labels: ['controller', 'kind'],
    help: 'Number of keys (owners for scale expectations, objects for resource_version ones) waiting for the cache to show a change the controller made',
  },
  {
    member: 'oldestUnsatisfied',
    name: 'kruise_ts_expectations_oldest_unsatisfied_seconds',
    type: 'gauge',
    labels: ['controller', 'kind'],
    help: 'How many seconds the key waiting longest has waited for the cache to show a change the controller made. Large values indicate a stuck key.',
  },
  {
    member: 'waitDuration',
    name: 'kruise_ts_expectations_wait_duration_seconds',
    type: 'histogram',
    labels: ['controller', 'kind'],
    help: 'How long in seconds a key waited from raising an expectation until the cache showed every expected change (or the expectation timed out)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  },
];

/** prom-client keeps label names and buckets on the metric object without typing them. */
interface MetricInternals {
  readonly labelNames: readonly string[];
  readonly upperBounds?: readonly number[];
}

describe('expectationCollectorsOf', () => {
  it('registers the expectation metrics once per registry', async () => {
    const registry = new Registry();
    const collectors = expectationCollectorsOf(registry);
    expect(expectationCollectorsOf(registry)).toBe(collectors);
    const registered = (await registry.getMetricsAsJSON()).map((metric) => metric.name).sort();
    expect(registered).toEqual(EXPECTED.map((expected) => expected.name).sort());
    expect(expectationCollectorsOf(new Registry())).not.toBe(collectors);
  });

  it.each(EXPECTED)('$name: type, help, labels and buckets', async (expected) => {
    const registry = new Registry();
    const metric = expectationCollectorsOf(registry)[expected.member];
    const json = (await registry.getMetricsAsJSON()).find((candidate) => candidate.name === expected.name);
    expect(json).toMatchObject({ name: expected.name, type: expected.type, help: expected.help });
    const internals = metric as unknown as MetricInternals;
    expect(internals.labelNames).toEqual(expected.labels);
    if (expected.buckets !== undefined) {
      expect(internals.upperBounds).toEqual(expected.buckets);
    }
  });

  it('exposes recorded samples with their labels in the text format', async () => {
    const registry = new Registry();
    expectationCollectorsOf(registry).timeouts.inc({ controller: 'cloneset', kind: 'scale' });
    expect(await registry.metrics()).toContain(
      'kruise_ts_expectations_timeouts_total{controller="cloneset",kind="scale"} 1',
    );
  });
});
