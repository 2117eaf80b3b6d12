/**
 * One resource of an in-memory API server that lists and watches, for unit tests of what runs its own
 * informers (the bucket labeller): label selectors as the labeller and the sharded caches send them
 * (`k`, `k=v`, `k in (...)`, `k notin (...)`), lists and watches (from a version, replayed from a log
 * so that nothing between a list and its watch is missed), and merge patches of labels conditioned on
 * `metadata.resourceVersion`.
 */
import type { ListWatcher } from '../cache/list-watcher.ts';
import type { PatchRequest } from '../client/client.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { WatchEvent } from '../client/watch.ts';
import { fakeApiError } from './fake-api-error.ts';

interface Change {
  readonly version: number;
  readonly before: KubeObject | undefined;
  readonly after: KubeObject | undefined;
}

type Labels = Readonly<Record<string, string>>;

/** The comma-separated requirements of a selector (commas inside `( )` belong to a set). */
function requirements(selector: string): string[] {
  return selector
    .split(/,(?![^(]*\))/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function satisfies(requirement: string, labels: Labels): boolean {
  const set = /^(\S+) (in|notin) \((.*)\)$/.exec(requirement);
  if (set !== null) {
    const [, key = '', operator, values = ''] = set;
    const listed = Object.hasOwn(labels, key) && values.split(',').includes(labels[key] ?? '');
    return operator === 'in' ? listed : !listed;
  }
  const equal = /^([^=]+)=(.*)$/.exec(requirement);
  return equal === null ? Object.hasOwn(labels, requirement) : labels[equal[1] ?? ''] === equal[2];
}

export function matchesSelector(selector: string, object: KubeObject | undefined): boolean {
  return (
    object !== undefined &&
    requirements(selector).every((requirement) => satisfies(requirement, object.metadata?.labels ?? {}))
  );
}

export class MemoryApi {
  readonly #objects = new Map<string, KubeObject>();
  readonly #log: Change[] = [];
  readonly #wakers = new Set<() => void>();
  #version = 0;
  /** Every patch asked for: the object's name and the label value it sets. */
  readonly patches: { readonly name: string; readonly value: string | undefined }[] = [];
  /** Runs before a patch is applied (a test changes the object under the patch). */
  beforePatch: ((name: string) => void) | undefined;

  /** Creates or replaces an object (a new resourceVersion). */
  put(object: KubeObject): KubeObject {
    const name = object.metadata?.name ?? '';
    const stored = { ...object, metadata: { ...object.metadata, resourceVersion: String(++this.#version) } };
    this.#log.push({ version: this.#version, before: this.#objects.get(name), after: stored });
    this.#objects.set(name, stored);
    this.#wake();
    return stored;
  }

  get(name: string): KubeObject | undefined {
    return this.#objects.get(name);
  }

  patch(name: string, request: PatchRequest): Promise<KubeObject> {
    const body = request.body as { metadata?: { labels?: Labels; resourceVersion?: string } };
    this.patches.push({ name, value: Object.values(body.metadata?.labels ?? {})[0] });
    this.beforePatch?.(name);
    const current = this.#objects.get(name);
    if (current === undefined) {
      return Promise.reject(fakeApiError({ code: 404, reason: 'NotFound', name }));
    }
    if (conflicts(current, body.metadata?.resourceVersion)) {
      return Promise.reject(fakeApiError({ code: 409, reason: 'Conflict', name }));
    }
    return Promise.resolve(
      this.put({
        ...current,
        metadata: { ...current.metadata, labels: { ...current.metadata?.labels, ...body.metadata?.labels } },
      }),
    );
  }

  listWatcher(selector: string): ListWatcher<KubeObject> {
    return {
      list: () =>
        Promise.resolve({
          items: [...this.#objects.values()].filter((object) => matchesSelector(selector, object)),
          metadata: { resourceVersion: String(this.#version) },
        }),
      watch: (options) => this.#watch(selector, { from: Number(options.resourceVersion), signal: options.signal }),
    };
  }

  async *#watch(
    selector: string,
    options: { from: number; signal: AbortSignal },
  ): AsyncGenerator<WatchEvent<KubeObject>> {
    let next = this.#log.findIndex((change) => change.version > options.from);
    next = next < 0 ? this.#log.length : next;
    while (!options.signal.aborted) {
      const change = this.#log[next];
      if (change === undefined) {
        await this.#changed(options.signal);
        continue;
      }
      next++;
      const event = eventOf(selector, change);
      if (event !== undefined) {
        yield event;
      }
    }
  }

  #changed(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        this.#wakers.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      this.#wakers.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  #wake(): void {
    for (const wake of [...this.#wakers]) {
      wake();
    }
  }
}

/** Whether a write conditioned on `condition` finds the object at another version. */
function conflicts(current: KubeObject, condition: string | undefined): boolean {
  return condition !== undefined && condition !== current.metadata?.resourceVersion;
}

/** What a watch with `selector` sees of a change: an object entering, changing in, or leaving its selection. */
function eventOf(selector: string, change: Change): WatchEvent<KubeObject> | undefined {
  const [was, is] = [matchesSelector(selector, change.before), matchesSelector(selector, change.after)];
  const resourceVersion = String(change.version);
  if (is && change.after !== undefined) {
    return { type: was ? 'MODIFIED' : 'ADDED', object: change.after, resourceVersion };
  }
  return was && change.before !== undefined ? { type: 'DELETED', object: change.before, resourceVersion } : undefined;
}
