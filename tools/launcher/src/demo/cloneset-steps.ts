/** The demo's steps on its CloneSet: apply it, change it, and follow its status until a goal (the other steps follow theirs the same way). */
import { setTimeout as sleep } from 'node:timers/promises';

import { loadYaml } from '@kubernetes/client-node';
import { cloneSetResource } from '@kruise-ts/cloneset';
import type { CloneSet, Pod } from '@kruise-ts/api';
import { createLogger, InformerFactory, isNotFound } from '@kruise-ts/controller-runtime';
import type { Client, DeepReadonly, KubeObject, ResourceType } from '@kruise-ts/controller-runtime';
import { podResource } from '@kruise-ts/workload';

import { endLine, progressOf, progressText, showLine, timedLine } from './status-line.ts';
import type { Output } from './status-line.ts';

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
    await until(ctx, 'the old CloneSet to be gone', async () =>
      ctx.client.get(cloneSetResource, key).then(
        () => false,
        (error: unknown) => isNotFound(error),
      ),
    );
  }
  return ctx.client.create(cloneSetResource, cloneSet);
}

/** The CloneSet's pods (not terminating), by name. */
export async function podsOf(ctx: StepContext, selector: string): Promise<Pod[]> {
  const pods = await ctx.client.list(podResource, { namespace: ctx.namespace, labelSelector: selector });
  return pods.items
    .filter((pod) => pod.metadata?.deletionTimestamp === undefined)
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
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
 * The demo's objects of one kind as a watch delivers them, so that every status write the controller
 * makes is seen (polling would skip the intermediate states of a fast rollout).
 */
export class ObjectWatch<T extends KubeObject> {
  readonly #informer;
  readonly #listeners = new Set<(object: DeepReadonly<T>) => void>();
  readonly #stop = new AbortController();
  readonly #factory: InformerFactory;

  constructor(ctx: StepContext, resource: ResourceType<T>) {
    this.#factory = new InformerFactory({
      client: ctx.client,
      logger: createLogger({ level: 'silent' }),
      namespace: ctx.namespace,
    });
    this.#informer = this.#factory.informerFor({ resource });
    const notify = (object: DeepReadonly<T>): void => {
      for (const listener of this.#listeners) {
        listener(object);
      }
    };
    this.#informer.addEventHandler({
      onAdd: notify,
      onUpdate: (_old, object) => {
        notify(object);
      },
    });
    this.#factory.start(this.#stop.signal);
  }

  current(namespace: string, name: string): DeepReadonly<T> | undefined {
    return this.#informer.lister().get(namespace, name);
  }

  listen(listener: (object: DeepReadonly<T>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  stop(): void {
    this.#stop.abort();
  }
}

/** The demo's CloneSets as a watch delivers them. */
export class CloneSetWatch extends ObjectWatch<CloneSet> {
  constructor(ctx: StepContext) {
    super(ctx, cloneSetResource);
  }
}

/** What {@link followObject} follows: an object by name, the text of its line, and when to stop. */
export interface FollowInput<T extends KubeObject> {
  /** In the timeout's message, e.g. "CloneSet". */
  readonly kind: string;
  readonly name: string;
  readonly text: (object: DeepReadonly<T>) => string;
  readonly goal: (object: DeepReadonly<T>) => boolean;
}

/**
 * Follows an object's status, showing a line whenever its text changes, until `goal` holds. Returns
 * how long it took and the object at the end; gives up after the step timeout.
 */
export async function followObject<T extends KubeObject>(
  ctx: StepContext,
  watch: ObjectWatch<T>,
  input: FollowInput<T>,
): Promise<{ elapsedMs: number; object: DeepReadonly<T> }> {
  const started = performance.now();
  let shown: string | undefined;
  const show = (object: DeepReadonly<T>): void => {
    const text = input.text(object);
    if (text !== shown) {
      shown = text;
      showLine(ctx.out, timedLine(input.name, text, performance.now() - started));
    }
  };
  try {
    const object = await new Promise<DeepReadonly<T>>((resolve, reject) => {
      const check = (candidate: DeepReadonly<T>): void => {
        if (candidate.metadata?.name !== input.name) {
          return;
        }
        show(candidate);
        if (input.goal(candidate)) {
          finish();
          resolve(candidate);
        }
      };
      const unlisten = watch.listen(check);
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`gave up waiting for ${input.kind} ${input.name} after ${String(ctx.stepTimeoutMs / 1000)}s`));
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
    return { elapsedMs: performance.now() - started, object };
  } finally {
    endLine(ctx.out);
  }
}

/**
 * Follows the CloneSet's status, showing a line whenever a counter changes, until `goal` holds.
 * Returns how long it took and the CloneSet at the end; gives up after the step timeout.
 */
export async function follow(
  ctx: StepContext,
  watch: CloneSetWatch,
  input: { name: string; goal: (cs: DeepReadonly<CloneSet>) => boolean },
): Promise<{ elapsedMs: number; cs: DeepReadonly<CloneSet> }> {
  const followed = await followObject(ctx, watch, {
    kind: 'CloneSet',
    name: input.name,
    text: (cs) => progressText(progressOf(cs)),
    goal: input.goal,
  });
  return { elapsedMs: followed.elapsedMs, cs: followed.object };
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
