import pino from 'pino';
import { describe, expect, it } from 'vitest';

import { ApiError } from '../client/api-error.ts';
import type { ObjectList } from '../client/client.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { WatchEvent } from '../client/watch.ts';
import { Informer, stripManagedFields } from './informer.ts';
import type { ListWatcher } from './list-watcher.ts';

const logger = pino({ level: 'silent' });

function obj(name: string, rv: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { metadata: { namespace: 'ns', name, resourceVersion: rv, ...extra } };
}

/** A watch stream the test drives: push events, end it, or fail it. */
class Stream implements AsyncIterable<WatchEvent<KubeObject>> {
  readonly #queue: (WatchEvent<KubeObject> | { end: true } | { error: unknown })[] = [];
  #wake: (() => void) | undefined;

  push(item: WatchEvent<KubeObject> | { end: true } | { error: unknown }): void {
    this.#queue.push(item);
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<KubeObject>> {
    for (;;) {
      const item = this.#queue.shift();
      if (item === undefined) {
        await new Promise<void>((resolve) => (this.#wake = resolve));
        continue;
      }
      if ('end' in item) {
        return;
      }
      if ('error' in item) {
        throw item.error;
      }
      yield item;
    }
  }
}

/** Serves scripted list pages and hands out a new Stream per watch call. */
class ScriptedListWatcher implements ListWatcher<KubeObject> {
  readonly lists: (ObjectList<KubeObject> | { error: Error })[][] = [];
  readonly watchVersions: string[] = [];
  readonly streams: Stream[] = [];
  #page = 0;

  list(): Promise<ObjectList<KubeObject>> {
    const pages = this.lists[0];
    const page = pages?.[this.#page];
    if (pages === undefined || page === undefined) {
      return Promise.reject(new Error('no list scripted'));
    }
    this.#page++;
    if (this.#page >= pages.length) {
      this.lists.shift();
      this.#page = 0;
    }
    return 'error' in page ? Promise.reject(page.error) : Promise.resolve(page);
  }

  watch(options: { resourceVersion: string; signal: AbortSignal }): AsyncIterable<WatchEvent<KubeObject>> {
    this.watchVersions.push(options.resourceVersion);
    const stream = new Stream();
    this.streams.push(stream);
    // Like a real watch, an aborted signal ends the stream with the abort's reason.
    options.signal.addEventListener(
      'abort',
      () => {
        stream.push({ error: options.signal.reason });
      },
      { once: true },
    );
    return stream;
  }
}

function page(items: KubeObject[], resourceVersion: string, next?: string): ObjectList<KubeObject> {
  return { items, metadata: next === undefined ? { resourceVersion } : { resourceVersion, continue: next } };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(condition()).toBe(true);
}

function recorder(informer: Informer<KubeObject>): string[] {
  const log: string[] = [];
  informer.addEventHandler({
    onAdd: (o, initial) =>
      log.push(`add ${o.metadata?.name ?? ''}@${o.metadata?.resourceVersion ?? ''}${initial ? ' initial' : ''}`),
    onUpdate: (a, b) =>
      log.push(
        `update ${a.metadata?.name ?? ''} ${a.metadata?.resourceVersion ?? ''}->${b.metadata?.resourceVersion ?? ''}`,
      ),
    onDelete: (o) => log.push(`delete ${o.metadata?.name ?? ''}@${o.metadata?.resourceVersion ?? ''}`),
  });
  return log;
}

function start(
  listWatcher: ListWatcher<KubeObject>,
  extra: { freeze?: boolean; onActivity?: () => void; keep?: (object: KubeObject) => boolean } = {},
): { informer: Informer<KubeObject>; log: string[]; stop: AbortController } {
  const informer = new Informer({
    listWatcher,
    description: 'test',
    logger,
    backoff: { initialMs: 1, maxMs: 2 },
    transform: stripManagedFields,
    ...extra,
  });
  const log = recorder(informer);
  const stop = new AbortController();
  void informer.run(stop.signal);
  return { informer, log, stop };
}

describe('Informer', () => {
  it("lists every page, then watches from the first page's resourceVersion", async () => {
    const lw = new ScriptedListWatcher();
    lw.lists.push([page([obj('a', '5')], '10', 'token'), page([obj('b', '6')], '11')]);
    const { informer, log, stop } = start(lw);
    await until(() => lw.streams.length === 1);
    expect(informer.hasSynced()).toBe(true);
    expect(log).toEqual(['add a@5 initial', 'add b@6 initial']);
    expect(lw.watchVersions).toEqual(['10']);
    stop.abort();
  });

  it('delivers watch events with old and new objects, the last known state on delete, and follows bookmarks', async () => {
    const lw = new ScriptedListWatcher();
    lw.lists.push([page([obj('a', '5')], '10')]);
    const { informer, log, stop } = start(lw);
    await until(() => lw.streams.length === 1);
    const stream = lw.streams[0];
    stream?.push({ type: 'ADDED', object: obj('b', '11'), resourceVersion: '11' });
    stream?.push({ type: 'MODIFIED', object: obj('a', '12'), resourceVersion: '12' });
    stream?.push({ type: 'DELETED', object: obj('b', '13'), resourceVersion: '13' });
    stream?.push({ type: 'BOOKMARK', resourceVersion: '20' });
    await until(() => informer.lastSyncResourceVersion() === '20');
    expect(log.slice(1)).toEqual(['add b@11', 'update a 5->12', 'delete b@11']);
    expect(
      informer
        .lister()
        .list()
        .map((o) => o.metadata?.name),
    ).toEqual(['a']);

    // The server closes the watch: resume from the last version seen, without relisting.
    stream?.push({ end: true });
    await until(() => lw.streams.length === 2);
    expect(lw.watchVersions).toEqual(['10', '20']);
    expect(informer.stats().lists).toBe(1);
    stop.abort();
  });

  it('caches only what `keep` accepts: others are never added, and one that stops passing is deleted', async () => {
    const lw = new ScriptedListWatcher();
    lw.lists.push([page([obj('a', '5', { labels: { ours: 'yes' } }), obj('x', '6')], '10')]);
    const { informer, log, stop } = start(lw, { keep: (object) => object.metadata?.labels?.['ours'] === 'yes' });
    await until(() => lw.streams.length === 1);
    const stream = lw.streams[0];
    stream?.push({ type: 'ADDED', object: obj('y', '11'), resourceVersion: '11' });
    stream?.push({ type: 'MODIFIED', object: obj('a', '12'), resourceVersion: '12' });
    stream?.push({ type: 'DELETED', object: obj('y', '13'), resourceVersion: '13' });
    stream?.push({ type: 'BOOKMARK', resourceVersion: '20' });
    await until(() => informer.lastSyncResourceVersion() === '20');
    expect(log).toEqual(['add a@5 initial', 'delete a@5', 'delete y@13']);
    expect(informer.cachedCount()).toBe(0);
    stop.abort();
  });

  it('relists after 410 Gone and reports what changed meanwhile', async () => {
    const lw = new ScriptedListWatcher();
    lw.lists.push([page([obj('a', '5'), obj('b', '6'), obj('c', '7')], '10')]);
    lw.lists.push([page([obj('a', '5'), obj('b', '30'), obj('d', '31')], '40')]);
    const { informer, log, stop } = start(lw);
    await until(() => lw.streams.length === 1);
    lw.streams[0]?.push({
      error: new ApiError({ code: 410, status: { kind: 'Status', reason: 'Expired', code: 410 } }),
    });
    await until(() => lw.streams.length === 2);
    expect(log.slice(3)).toEqual(['update b 6->30', 'add d@31', 'delete c@7']);
    expect(lw.watchVersions).toEqual(['10', '40']);
    expect(informer.stats()).toMatchObject({ lists: 2, relistsAfterGone: 1 });
    stop.abort();
  });

  it('relists on request, without backoff, and resolves once a list started after the request replaced the cache', async () => {
    const lw = new ScriptedListWatcher();
    lw.lists.push([page([obj('a', '5'), obj('b', '6')], '10')]);
    // The selection grew by one bucket and lost another: c is new, b left it, a is unchanged.
    lw.lists.push([page([obj('a', '5'), obj('c', '7')], '20')]);
    const { informer, log, stop } = start(lw);
    await until(() => lw.streams.length === 1);
    let done = false;
    const relisted = informer.relist().then(() => {
      done = true;
    });
    await relisted;
    expect(done).toBe(true);
    expect(log.slice(2)).toEqual(['add c@7', 'delete b@6']);
    await until(() => lw.streams.length === 2);
    expect(lw.watchVersions).toEqual(['10', '20']);
    expect(informer.stats()).toMatchObject({ lists: 2, failures: 0 });
    stop.abort();
  });

  it('a relist requested before the first list is answered by that list', async () => {
    const lw = new ScriptedListWatcher();
    lw.lists.push([page([obj('a', '5')], '10')]);
    const informer = new Informer({ listWatcher: lw, description: 'test', logger });
    const relisted = informer.relist();
    const stop = new AbortController();
    void informer.run(stop.signal);
    await relisted;
    expect(informer.stats().lists).toBe(1);
    stop.abort();
  });

  it('retries a failed watch from the same version and a failed list with backoff, never stopping', async () => {
    const lw = new ScriptedListWatcher();
    lw.lists.push([{ error: new Error('connection refused') }]);
    lw.lists.push([page([obj('a', '5')], '10')]);
    const { informer, stop } = start(lw);
    await until(() => lw.streams.length === 1);
    lw.streams[0]?.push({ error: new Error('socket hang up') });
    await until(() => lw.streams.length === 2);
    expect(lw.watchVersions).toEqual(['10', '10']);
    expect(informer.stats()).toMatchObject({ lists: 2, failures: 2, relistsAfterGone: 0 });
    stop.abort();
  });

  it('names itself once in each log line, even when its logger already carries a binding', async () => {
    const lines: string[] = [];
    const lw = new ScriptedListWatcher();
    lw.lists.push([{ error: new Error('connection refused') }]);
    lw.lists.push([page([obj('a', '5')], '10')]);
    const informer = new Informer({
      listWatcher: lw,
      description: 'pods in ns',
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }).child({ component: 'cache' }),
      backoff: { initialMs: 1, maxMs: 2 },
    });
    const stop = new AbortController();
    void informer.run(stop.signal);
    await until(() => lw.streams.length === 1);
    stop.abort();
    const failure = lines.find((line) => line.includes('List/watch failed'));
    expect(failure?.match(/"informer":/g)).toHaveLength(1);
    expect(failure).toContain('"informer":"pods in ns"');
  });

  it('replays the cache to a handler added after sync, and survives a throwing handler', async () => {
    const lw = new ScriptedListWatcher();
    lw.lists.push([page([obj('a', '5'), obj('b', '6')], '10')]);
    const { informer, log, stop } = start(lw);
    await until(() => informer.hasSynced());
    informer.addEventHandler({
      onAdd: () => {
        throw new Error('boom');
      },
    });
    const late = recorder(informer);
    expect(late).toEqual(['add a@5 initial', 'add b@6 initial']);
    lw.streams[0]?.push({ type: 'ADDED', object: obj('c', '11'), resourceVersion: '11' });
    await until(() => log.length === 3);
    expect(late.at(-1)).toBe('add c@11');
    stop.abort();
  });

  it('strips managedFields and, when asked, freezes cached objects', async () => {
    const lw = new ScriptedListWatcher();
    lw.lists.push([page([obj('a', '5', { managedFields: [{ manager: 'kubectl' }] })], '10')]);
    const { informer, stop } = start(lw, { freeze: true });
    await until(() => informer.hasSynced());
    const cached = informer.lister().get('ns', 'a');
    expect(cached?.metadata).not.toHaveProperty('managedFields');
    expect(() => {
      (cached?.metadata as { name?: string }).name = 'changed';
    }).toThrow(TypeError);
    stop.abort();
  });

  it('tells onActivity about each list and object event, not about bookmarks', async () => {
    const lw = new ScriptedListWatcher();
    lw.lists.push([page([obj('a', '5')], '10')]);
    let activity = 0;
    const { informer, stop } = start(lw, { onActivity: () => activity++ });
    await until(() => lw.streams.length === 1);
    expect(activity).toBe(1);
    lw.streams[0]?.push({ type: 'ADDED', object: obj('b', '11'), resourceVersion: '11' });
    lw.streams[0]?.push({ type: 'BOOKMARK', resourceVersion: '20' });
    await until(() => informer.lastSyncResourceVersion() === '20');
    expect(activity).toBe(2);
    stop.abort();
  });

  it('stripManagedFields keeps every other field, and the input as it was', () => {
    const input = {
      metadata: {
        name: 'a',
        namespace: 'ns',
        labels: { app: 'web' },
        managedFields: [{ manager: 'kubectl' }],
        resourceVersion: '5',
      },
      spec: { replicas: 1 },
    };
    const stripped = stripManagedFields(input);
    expect(stripped).toEqual({
      metadata: { name: 'a', namespace: 'ns', labels: { app: 'web' }, resourceVersion: '5' },
      spec: { replicas: 1 },
    });
    expect(input.metadata.managedFields).toEqual([{ manager: 'kubectl' }]);
  });

  it('waitForSync resolves false when aborted before the first list', async () => {
    const lw = new ScriptedListWatcher();
    const informer = new Informer({ listWatcher: lw, description: 'test', logger });
    const abort = new AbortController();
    const waiting = informer.waitForSync(abort.signal);
    abort.abort();
    expect(await waiting).toBe(false);
  });
});
