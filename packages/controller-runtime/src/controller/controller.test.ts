import pino from 'pino';
import { describe, expect, it } from 'vitest';

import { Informer } from '../cache/informer.ts';
import type { ListWatcher } from '../cache/list-watcher.ts';
import type { KubeObject } from '../client/kube-object.ts';
import { itemExponentialFailureRateLimiter } from '../queue/rate-limiters.ts';
import { TerminalError } from '../reconcile/reconcile.ts';
import type { Reconciler, Request, Result } from '../reconcile/reconcile.ts';
import { Controller } from './controller.ts';
import type { ReconcileOutcome } from './controller.ts';
import { requestForControllerOwner, requestForObject } from './event-mappers.ts';

const logger = pino({ level: 'silent' });

function staticListWatcher(items: KubeObject[]): ListWatcher<KubeObject> {
  return {
    list: () => Promise.resolve({ items, metadata: { resourceVersion: '1' } }),
    // A watch that stays open without events until aborted.
    watch: ({ signal }) => ({
      [Symbol.asyncIterator]: () => ({
        next: () =>
          new Promise<IteratorResult<never>>((resolve) => {
            signal.addEventListener(
              'abort',
              () => {
                resolve({ done: true, value: undefined });
              },
              { once: true },
            );
          }),
      }),
    }),
  };
}

function object(name: string): KubeObject {
  return { metadata: { namespace: 'ns', name, resourceVersion: '1' } };
}

async function until(condition: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(condition()).toBe(true);
}

interface Harness {
  controller: Controller;
  outcomes: ReconcileOutcome[];
  stop: AbortController;
  done: Promise<void>;
}

function run(
  items: KubeObject[],
  reconcile: (request: Request, signal: AbortSignal) => Promise<Result | undefined>,
  workers = 2,
): Harness {
  const informer = new Informer({ listWatcher: staticListWatcher(items), description: 'test', logger });
  const outcomes: ReconcileOutcome[] = [];
  const reconciler: Reconciler = { reconcile: (context, request) => reconcile(request, context.signal) };
  const controller = new Controller({
    name: 'test',
    reconciler,
    logger,
    workers,
    rateLimiter: itemExponentialFailureRateLimiter<string>({ baseDelayMs: 1, maxDelayMs: 4 }),
    observer: { reconciled: (r) => outcomes.push(r.outcome), workers: () => undefined },
  });
  controller.watch(informer, requestForObject());
  const stop = new AbortController();
  void informer.run(stop.signal);
  const done = controller.start(stop.signal);
  return { controller, outcomes, stop, done };
}

describe('Controller', () => {
  it('reconciles every object once the cache has synced', async () => {
    const seen: string[] = [];
    const h = run([object('a'), object('b')], (request) => {
      seen.push(request.name);
      return Promise.resolve(undefined);
    });
    await until(() => seen.length === 2);
    expect(seen.sort()).toEqual(['a', 'b']);
    h.stop.abort();
    await h.done;
    expect(h.outcomes).toEqual(['success', 'success']);
  });

  it('retries an error with backoff until it succeeds, and never retries a TerminalError', async () => {
    const attempts = new Map<string, number>();
    const h = run([object('flaky'), object('invalid')], (request) => {
      const n = (attempts.get(request.name) ?? 0) + 1;
      attempts.set(request.name, n);
      if (request.name === 'invalid') {
        return Promise.reject(new TerminalError('spec.replicas is invalid'));
      }
      return n < 3 ? Promise.reject(new Error('conflict')) : Promise.resolve(undefined);
    });
    await until(() => attempts.get('flaky') === 3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(attempts.get('invalid')).toBe(1);
    h.stop.abort();
    await h.done;
    expect(h.outcomes.filter((o) => o === 'error')).toHaveLength(3);
  });

  it('requeues after the requested delay', async () => {
    let calls = 0;
    const h = run([object('a')], () => {
      calls++;
      return Promise.resolve(calls === 1 ? { requeueAfterMs: 20 } : undefined);
    });
    await until(() => calls === 2);
    h.stop.abort();
    await h.done;
    expect(h.outcomes).toEqual(['requeue_after', 'success']);
  });

  it('never reconciles one key in two workers at once, and reconciles again after a change during a run', async () => {
    let running = 0;
    let maxRunning = 0;
    let calls = 0;
    let release: (() => void) | undefined;
    const h = run(
      [object('a')],
      async () => {
        calls++;
        running++;
        maxRunning = Math.max(maxRunning, running);
        if (calls === 1) {
          await new Promise<void>((resolve) => (release = resolve));
        }
        running--;
        return undefined;
      },
      4,
    );
    await until(() => release !== undefined);
    h.controller.enqueue({ namespace: 'ns', name: 'a' });
    h.controller.enqueue({ namespace: 'ns', name: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(1);
    release?.();
    await until(() => calls === 2);
    expect(maxRunning).toBe(1);
    h.stop.abort();
    await h.done;
  });

  it('lets the reconcile in flight finish on shutdown', async () => {
    let finished = false;
    let entered = false;
    const h = run([object('a')], async () => {
      entered = true;
      await new Promise((resolve) => setTimeout(resolve, 50));
      finished = true;
      return undefined;
    });
    await until(() => entered);
    h.stop.abort();
    await h.done;
    expect(finished).toBe(true);
  });
});

describe('Controller shutdown', () => {
  it('aborts the reconcile in flight, drops the keys still queued and does not retry the cancelled one', async () => {
    const started: string[] = [];
    let sawAbort = false;
    const h = run(
      [object('a'), object('b'), object('c')],
      (request, signal) => {
        started.push(request.name);
        return new Promise((_resolve, reject) => {
          signal.addEventListener(
            'abort',
            () => {
              sawAbort = true;
              reject(signal.reason as Error);
            },
            { once: true },
          );
        });
      },
      1,
    );
    await until(() => started.length === 1);
    h.stop.abort();
    await h.done;
    expect(sawAbort).toBe(true);
    // One worker: the two keys behind the first were never handed out, and the cancelled one is not requeued.
    expect(started).toHaveLength(1);
    expect(h.controller.queue.len()).toBe(0);
    expect(h.controller.queue.numRequeues(`ns/${started[0] ?? ''}`)).toBe(0);
  });
});

describe('event mappers', () => {
  it('maps owned objects to their controller of the right group and kind, any version', () => {
    const mapper = requestForControllerOwner({ group: 'apps.kruise.io', kind: 'CloneSet' });
    const owned = (apiVersion: string, kind: string): KubeObject => ({
      metadata: {
        namespace: 'ns',
        name: 'p',
        ownerReferences: [{ apiVersion, kind, name: 'cs', uid: 'u', controller: true }],
      },
    });
    expect(mapper(owned('apps.kruise.io/v1alpha1', 'CloneSet'))).toEqual([{ namespace: 'ns', name: 'cs' }]);
    expect(mapper(owned('apps.kruise.io/v1beta1', 'CloneSet'))).toEqual([{ namespace: 'ns', name: 'cs' }]);
    expect(mapper(owned('apps/v1', 'ReplicaSet'))).toEqual([]);
    expect(mapper({ metadata: { namespace: 'ns', name: 'orphan' } })).toEqual([]);
  });
});
