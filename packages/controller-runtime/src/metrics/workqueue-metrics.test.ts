import { describe, expect, it } from 'vitest';

import { createWorkQueue } from '../queue/work-queue.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { createRuntimeMetrics } from './runtime-metrics.ts';
import type { RuntimeMetrics } from './runtime-metrics.ts';

type Member =
  | 'workQueueDepth'
  | 'workQueueAdds'
  | 'workQueueUnfinishedWork'
  | 'workQueueLongestRunningProcessor'
  | 'workQueueRetries';

async function value(metrics: RuntimeMetrics, member: Member, name: string): Promise<number | undefined> {
  // Reading through the registry runs the scrape-time `collect` hooks, as a real scrape does.
  await metrics.registry.metrics();
  const { values } = await metrics[member].get();
  return values.find((sample) => sample.labels['name'] === name)?.value;
}

const HISTOGRAMS = {
  workQueueQueueDuration: 'workqueue_queue_duration_seconds',
  workQueueWorkDuration: 'workqueue_work_duration_seconds',
} as const;

async function histogram(
  metrics: RuntimeMetrics,
  member: keyof typeof HISTOGRAMS,
  name: string,
): Promise<{ count: number; sum: number }> {
  const { values } = await metrics[member].get();
  const pick = (suffix: string): number =>
    values.find((sample) => sample.metricName === `${HISTOGRAMS[member]}_${suffix}` && sample.labels['name'] === name)
      ?.value ?? 0;
  return { count: pick('count'), sum: pick('sum') };
}

describe('work queue metrics', () => {
  it('move as the queue is used', async () => {
    const clock = new FakeClock();
    const metrics = createRuntimeMetrics();
    const queue = createWorkQueue<string>({ name: 'cloneset', clock, metrics: metrics.workQueueMetrics('cloneset') });

    queue.add('ns/a');
    queue.add('ns/b');
    queue.add('ns/a');
    expect(await value(metrics, 'workQueueAdds', 'cloneset')).toBe(2);
    expect(await value(metrics, 'workQueueDepth', 'cloneset')).toBe(2);

    clock.advance(1500);
    const item = await queue.get();
    expect(await value(metrics, 'workQueueDepth', 'cloneset')).toBe(1);
    expect(await histogram(metrics, 'workQueueQueueDuration', 'cloneset')).toEqual({ count: 1, sum: 1.5 });

    clock.advance(3000);
    await queue.get();
    clock.advance(1000);
    // Two items in flight for 4 s and 1 s.
    expect(await value(metrics, 'workQueueUnfinishedWork', 'cloneset')).toBe(5);
    expect(await value(metrics, 'workQueueLongestRunningProcessor', 'cloneset')).toBe(4);

    queue.done(item ?? '');
    queue.done('ns/b');
    expect(await histogram(metrics, 'workQueueWorkDuration', 'cloneset')).toEqual({ count: 2, sum: 5 });
    expect(await value(metrics, 'workQueueUnfinishedWork', 'cloneset')).toBe(0);
    expect(await value(metrics, 'workQueueLongestRunningProcessor', 'cloneset')).toBe(0);

    queue.addRateLimited('ns/a');
    queue.addAfter('ns/b', 10);
    queue.addAfter('ns/c', 0);
    // Only the rate-limited retry: a requested delay is not a retry (client-go).
    expect(await value(metrics, 'workQueueRetries', 'cloneset')).toBe(1);
    expect(await value(metrics, 'workQueueDepth', 'cloneset')).toBe(1);
  });

  it('labels each queue by name and controller and keeps queues apart', async () => {
    const clock = new FakeClock();
    const metrics = createRuntimeMetrics();
    const a = createWorkQueue<string>({ name: 'cloneset', clock, metrics: metrics.workQueueMetrics('cloneset') });
    const b = createWorkQueue<string>({ name: 'sidecarset', clock, metrics: metrics.workQueueMetrics('sidecarset') });
    a.add('x');
    b.add('x');
    b.add('y');
    const text = await metrics.registry.metrics();
    expect(text).toContain('workqueue_depth{name="cloneset",controller="cloneset",priority=""} 1');
    expect(text).toContain('workqueue_depth{name="sidecarset",controller="sidecarset",priority=""} 2');
    expect(text).toContain('workqueue_adds_total{name="sidecarset",controller="sidecarset"} 2');
  });

  it('reports zero depth after shutDown', async () => {
    const metrics = createRuntimeMetrics();
    const queue = createWorkQueue<string>({
      name: 'q',
      clock: new FakeClock(),
      metrics: metrics.workQueueMetrics('q'),
    });
    queue.add('x');
    queue.shutDown();
    expect(await value(metrics, 'workQueueDepth', 'q')).toBe(0);
  });
});
