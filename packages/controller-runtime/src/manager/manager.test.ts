import { Writable } from 'node:stream';

import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { createLogger } from '../log/logger.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { managerFlagsSchema, parseFlags } from '../flags/manager-flags.ts';
import { managerOptionsFromFlags } from './manager-from-flags.ts';
import { Manager } from './manager.ts';
import type { ManagerOptions } from './manager.ts';
import { unreachableKubeConfig } from '../testing/unreachable-kube-config.ts';

function offlineManager(lines: string[], options: Partial<ManagerOptions> = {}): Manager {
  const kubeConfig = unreachableKubeConfig();
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return new Manager({ kubeConfig, logger: createLogger({ level: 'info', destination }), ...options });
}

describe('Manager expectations', () => {
  it('logs and counts a scale expectation that times out, and the owner is unblocked', async () => {
    const lines: string[] = [];
    const manager = offlineManager(lines);
    const clock = new FakeClock();
    const expectations = manager.scaleExpectations('cloneset', { timeoutMs: 1000, clock });
    expectations.expect('ns/cs', 'create', 'cs-abcde');
    expect(expectations.satisfied('ns/cs').satisfied).toBe(false);
    clock.advance(1000);
    expect(expectations.satisfied('ns/cs')).toMatchObject({ satisfied: true, timedOut: true });

    const metrics = await manager.metrics.registry.metrics();
    expect(metrics).toContain('kruise_ts_expectations_timeouts_total{controller="cloneset",kind="scale"} 1');
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
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
    const manager = offlineManager([]);
    const clock = new FakeClock();
    const scale = manager.scaleExpectations('cloneset', { timeoutMs: 60_000, clock });
    const versions = manager.resourceVersionExpectations('cloneset', { timeoutMs: 60_000, clock });
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
    const lines: string[] = [];
    const manager = offlineManager(lines);
    const clock = new FakeClock();
    const expectations = manager.resourceVersionExpectations('cloneset', { timeoutMs: 500, clock });
    const pod = { metadata: { uid: 'u1', resourceVersion: '10' } };
    expectations.expect(pod);
    expect(expectations.isSatisfied({ metadata: { uid: 'u1', resourceVersion: '9' } })).toBe(false);
    clock.advance(500);
    expect(expectations.isSatisfied({ metadata: { uid: 'u1', resourceVersion: '9' } })).toBe(true);
    expect(await manager.metrics.registry.metrics()).toContain(
      'kruise_ts_expectations_timeouts_total{controller="cloneset",kind="resource_version"} 1',
    );
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 'warn', controller: 'cloneset', object: 'u1', expected: '10', observed: '9' }),
    );
  });
});

describe('Manager rate limiter', () => {
  it.each([
    { argv: ['--rate-limiter-base-delay=1h'], queuedSoon: 0 },
    { argv: ['--rate-limiter-base-delay=0ms'], queuedSoon: 1 },
  ])('the --rate-limiter-* flags reach every controller queue: $argv', async ({ argv, queuedSoon }) => {
    const { rateLimiter } = managerOptionsFromFlags(parseFlags(argv, managerFlagsSchema), {
      kubeConfig: new KubeConfig(),
      logger: createLogger({ level: 'silent' }),
      userAgent: 't',
      defaultLeaseName: 'l',
    });
    const manager = offlineManager([], { rateLimiter });
    const controller = manager.newController({
      name: 'test',
      reconciler: { reconcile: () => Promise.resolve(undefined) },
    });
    controller.queue.addRateLimited('ns/a');
    // Long enough for a 0 ms delay to pass; an hour's delay keeps the item away whatever the machine does.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(controller.queue.len()).toBe(queuedSoon);
    controller.queue.shutDown();
  });
});
