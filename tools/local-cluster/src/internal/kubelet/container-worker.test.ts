import { describe, expect, it } from 'vitest';

import { ContainerStartError, ContainerWorker } from './container-worker.ts';
import type { ContainerProcessSpec } from './container-process.ts';

function workerWhosePlanFails(error: Error): { worker: ContainerWorker; changed: Promise<void> } {
  const changed = Promise.withResolvers<undefined>();
  const worker = new ContainerWorker({
    container: { name: 'main', image: 'kruise-ts' },
    restartPolicy: 'Always',
    backoff: { initialMs: 1000, maxMs: 1000 },
    probeTarget: { address: '127.0.0.1', hostPort: () => undefined },
    graceMs: 0,
    plan: (): Promise<ContainerProcessSpec> => Promise.reject(error),
    onChange: () => {
      const { state } = worker.view();
      if (state.kind !== 'waiting' || state.reason !== 'ContainerCreating' || error instanceof ContainerStartError) {
        changed.resolve(undefined);
      }
    },
    log: () => undefined,
  });
  return { worker, changed: changed.promise };
}

describe('ContainerWorker when its plan fails', () => {
  it('waits in ContainerCreating, without a restart, when the API cannot be read for a moment', async () => {
    const { worker } = workerWhosePlanFails(new Error('fetch failed'));
    worker.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(worker.view()).toMatchObject({
      state: { kind: 'waiting', reason: 'ContainerCreating', message: 'fetch failed' },
      restartCount: 0,
      lastState: undefined,
    });
    await worker.terminate(0);
  });

  it('reports a command that cannot run as a StartError exit', async () => {
    const { worker, changed } = workerWhosePlanFails(
      new ContainerStartError('exec: "nope": executable file not found in $PATH'),
    );
    worker.start();
    await changed;
    expect(worker.view().state).toMatchObject({ kind: 'terminated', reason: 'StartError', exitCode: 128 });
    await worker.terminate(0);
  });
});
