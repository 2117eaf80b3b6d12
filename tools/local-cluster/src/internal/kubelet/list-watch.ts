/**
 * A minimal list-and-watch of one resource with a field selector (client-node's informer takes none):
 * the whole list on every (re)start, then the watch's events; a watch that ends or fails is restarted
 * with a fresh list a second later.
 */
import { Watch } from '@kubernetes/client-node';
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';

import { errorText } from './api-errors.ts';

export interface ListWatchOptions<T extends KubernetesObject> {
  readonly path: string;
  readonly fieldSelector?: string;
  readonly list: () => Promise<{ readonly items: T[]; readonly metadata?: { readonly resourceVersion?: string } }>;
  readonly onList: (items: readonly T[]) => void;
  readonly onEvent: (type: 'ADDED' | 'MODIFIED' | 'DELETED', object: T) => void;
  readonly log: (line: string) => void;
}

const RESTART_DELAY_MS = 1000;

export class ListWatch<T extends KubernetesObject> {
  readonly #watch: Watch;
  readonly #options: ListWatchOptions<T>;
  #request: AbortController | undefined;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(kubeConfig: KubeConfig, options: ListWatchOptions<T>) {
    this.#watch = new Watch(kubeConfig);
    this.#options = options;
  }

  /** Resolves after the first list was delivered. */
  async start(): Promise<void> {
    await this.#cycle();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#request?.abort();
  }

  async #cycle(): Promise<void> {
    const listed = await this.#options.list();
    this.#options.onList(listed.items);
    const query: Record<string, string | boolean> = {
      allowWatchBookmarks: true,
      resourceVersion: listed.metadata?.resourceVersion ?? '',
    };
    if (this.#options.fieldSelector !== undefined) {
      query['fieldSelector'] = this.#options.fieldSelector;
    }
    this.#request = await this.#watch.watch(
      this.#options.path,
      query,
      (type: string, object: T) => {
        if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') {
          this.#options.onEvent(type, object);
        }
      },
      (error: unknown) => {
        this.#restart(error);
      },
    );
  }

  #restart(error: unknown): void {
    if (this.#stopped) {
      return;
    }
    if (error !== null && error !== undefined) {
      this.#options.log(`watch of ${this.#options.path} ended: ${errorText(error)}`);
    }
    this.#timer = setTimeout(() => {
      this.#cycle().catch((cause: unknown) => {
        this.#restart(cause);
      });
    }, RESTART_DELAY_MS);
  }
}
