import { Writable } from 'node:stream';

import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { createLogger } from '../log/logger.ts';
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
