/** The demo's steps on its CloneSet: apply it, change it, and follow its status until a goal. */
import { setTimeout as sleep } from 'node:timers/promises';

import { loadYaml } from '@kubernetes/client-node';
import { cloneSetResource } from '@kruise-ts/cloneset';
import type { CloneSet, Pod } from '@kruise-ts/api';
import { createLogger, InformerFactory, isNotFound } from '@kruise-ts/controller-runtime';
import type { Client, DeepReadonly } from '@kruise-ts/controller-runtime';
import { podResource } from '@kruise-ts/workload';

import { endLine, progressOf, sameProgress, showLine, statusLine } from './status-line.ts';
import type { Output, Progress } from './status-line.ts';

const POLL_MS = 200;

export interface StepContext {
  readonly client: Client;
  readonly namespace: string;
  readonly out: Output;
  readonly signal: AbortSignal;
  /** Longest a step may take before the demo gives up with a message (nothing hangs forever). */
  readonly stepTimeoutMs: number;
}

/** The document's sample CloneSet, placed in the demo namespace. */
export function sampleCloneSet(yaml: string, namespace: string): CloneSet {
  const sample = loadYaml<CloneSet>(yaml);
  return { ...sample, metadata: { ...sample.metadata, namespace } };
}

/** Creates the CloneSet, replacing one left by an earlier run (and waiting until its pods are gone). */
export async function applyFresh(ctx: StepContext, cloneSet: CloneSet): Promise<CloneSet> {
  const key = { namespace: ctx.namespace, name: cloneSet.metadata.name ?? '' };
  const existing = await ctx.client.get(cloneSetResource, key).catch((error: unknown) => {
    if (isNotFound(error)) {
      return undefined;
    }
    throw error;
  });
  if (existing !== undefined) {
    ctx.out.write(`Deleting the CloneSet ${key.name} left by an earlier run...\n`);
    await ctx.client.delete(cloneSetResource, key, { propagationPolicy: 'Foreground' });
    await until(ctx, 'the old CloneSet to be gone', async () => ctx.client.get(cloneSetResource, key).then(() => false, (error: unknown) => isNotFound(error)));
  }
  return ctx.client.create(cloneSetResource, cloneSet);
}

/** The CloneSet's pods (not terminating), by name. */
export async function podsOf(ctx: StepContext, selector: string): Promise<Pod[]> {
  const pods = await ctx.client.list(podResource, { namespace: ctx.namespace, labelSelector: selector });
  return pods.items.filter((pod) => pod.metadata?.deletionTimestamp === undefined).sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

/** Polls `check` until it holds; gives up after the step timeout. */
export async function until(ctx: StepContext, description: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ctx.stepTimeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`gave up waiting for ${description} after ${String(ctx.stepTimeoutMs / 1000)}s`);
    }
    await sleep(POLL_MS, undefined, { signal: ctx.signal });
  }
}

/**
 * The demo's CloneSets as a watch delivers them, so that every status write the controller makes is
 * seen (polling would skip the intermediate states of a fast rollout).
 */
export class CloneSetWatch {
  readonly #informer;
  readonly #listeners = new Set<(cs: DeepReadonly<CloneSet>) => void>();
  readonly #stop = new AbortController();
  readonly #factory: InformerFactory;

  constructor(ctx: StepContext) {
    this.#factory = new InformerFactory({ client: ctx.client, logger: createLogger({ level: 'silent' }), namespace: ctx.namespace });
    this.#informer = this.#factory.informerFor({ resource: cloneSetResource });
    const notify = (cs: DeepReadonly<CloneSet>): void => {
      for (const listener of this.#listeners) {
        listener(cs);
      }
    };
    this.#informer.addEventHandler({ onAdd: notify, onUpdate: (_old, cs) => {
      notify(cs);
    } });
    this.#factory.start(this.#stop.signal);
  }

  current(namespace: string, name: string): DeepReadonly<CloneSet> | undefined {
    return this.#informer.lister().get(namespace, name);
  }

  listen(listener: (cs: DeepReadonly<CloneSet>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  stop(): void {
    this.#stop.abort();
  }
}

/**
 * Follows the CloneSet's status, showing a line whenever a counter changes, until `goal` holds.
 * Returns how long it took and the CloneSet at the end; gives up after the step timeout.
 */
export async function follow(ctx: StepContext, watch: CloneSetWatch, input: { name: string; goal: (cs: DeepReadonly<CloneSet>) => boolean }): Promise<{ elapsedMs: number; cs: DeepReadonly<CloneSet> }> {
  const started = performance.now();
  let shown: Progress | undefined;
  const show = (cs: DeepReadonly<CloneSet>): void => {
    const progress = progressOf(cs);
    if (!sameProgress(shown, progress)) {
      shown = progress;
      showLine(ctx.out, statusLine(input.name, progress, performance.now() - started));
    }
  };
  try {
    const cs = await new Promise<DeepReadonly<CloneSet>>((resolve, reject) => {
      const check = (cs: DeepReadonly<CloneSet>): void => {
        if (cs.metadata.name !== input.name) {
          return;
        }
        show(cs);
        if (input.goal(cs)) {
          finish();
          resolve(cs);
        }
      };
      const unlisten = watch.listen(check);
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`gave up waiting for CloneSet ${input.name} after ${String(ctx.stepTimeoutMs / 1000)}s`));
      }, ctx.stepTimeoutMs);
      const onAbort = (): void => {
        finish();
        reject(new Error('aborted'));
      };
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      function finish(): void {
        unlisten();
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onAbort);
      }
      const now = watch.current(ctx.namespace, input.name);
      if (now !== undefined) {
        check(now);
      }
    });
    return { elapsedMs: performance.now() - started, cs };
  } finally {
    endLine(ctx.out);
  }
}

/** The status says every replica is there, ready and available, and it describes the current spec. */
export function settled(cs: DeepReadonly<CloneSet>): boolean {
  const status = cs.status;
  return (
    status !== undefined &&
    status.observedGeneration === cs.metadata.generation &&
    status.replicas === cs.spec.replicas &&
    status.readyReplicas === cs.spec.replicas &&
    status.availableReplicas === cs.spec.replicas
  );
}
