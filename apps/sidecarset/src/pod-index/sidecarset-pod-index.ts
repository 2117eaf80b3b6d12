/**
 * The pods of each SidecarSet (those it selects, and those that record it as injected), kept up to
 * date from informer events, so that a reconcile reads its own SidecarSet's pods instead of every pod
 * of the cluster: the pod webhook answers from the same event loop.
 *
 * A pod event re-matches that one pod against every SidecarSet (O(SidecarSets)). A SidecarSet that is
 * new, or whose selector or namespace scope changed, and every SidecarSet with a namespaceSelector when
 * a namespace's labels change, is marked for a rescan, which its next reconcile does in slices that
 * yield to the event loop between them.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

import { SIDECARSET_INJECTED_LIST_ANNOTATION } from '@kruise-ts/api';
import type { Pod, SidecarSet } from '@kruise-ts/api';
import { objectKey } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, KubeObject, Lister } from '@kruise-ts/controller-runtime';

import { sidecarSetMatchesPod } from '../injection/pod-match.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlySidecarSet = DeepReadonly<SidecarSet>;

/** The caches the index matches from. */
export interface PodIndexSources {
  readonly sets: Lister<SidecarSet>;
  readonly pods: Lister<Pod>;
  readonly namespaces: Lister<KubeObject>;
}

/** Pods matched between two yields of a rescan. */
const RESCAN_SLICE = 500;

function injectedList(pod: ReadonlyPod): Set<string> {
  return new Set(
    (pod.metadata?.annotations?.[SIDECARSET_INJECTED_LIST_ANNOTATION] ?? '').split(',').filter((name) => name !== ''),
  );
}

/** What decides which pods a SidecarSet selects. */
function scopeOf(set: ReadonlySidecarSet | undefined): string {
  const spec = set?.spec as Partial<ReadonlySidecarSet['spec']> | undefined;
  return JSON.stringify([spec?.selector, spec?.namespace, spec?.namespaceSelector]);
}

function labelsOf(object: DeepReadonly<KubeObject> | undefined): string {
  return JSON.stringify(object?.metadata?.labels ?? {});
}

export class SidecarSetPodIndex {
  readonly #sources: PodIndexSources;
  readonly #podsOfSet = new Map<string, Set<string>>();
  readonly #setsOfPod = new Map<string, Set<string>>();
  /** SidecarSets to rescan, with a counter that moves on every new reason to rescan (a rescan under way then does not clear it). */
  readonly #dirty = new Map<string, number>();
  #epoch = 0;

  constructor(sources: PodIndexSources) {
    this.#sources = sources;
  }

  /** A pod added or changed; returns the SidecarSets it concerned before or concerns now. */
  podChanged(pod: ReadonlyPod): string[] {
    const key = objectKey(pod);
    const before = new Set(this.#setsOfPod.get(key));
    const injected = injectedList(pod);
    const after = new Set(
      this.#sources.sets.list().flatMap((set) => (this.#concerns(set, pod, injected) ? [set.metadata.name ?? ''] : [])),
    );
    for (const name of before) {
      if (!after.has(name)) {
        this.#unlink(name, key);
      }
    }
    for (const name of after) {
      this.#link(name, key);
    }
    return [...new Set([...before, ...after])];
  }

  /** A pod deleted; returns the SidecarSets it concerned. */
  podDeleted(pod: ReadonlyPod): string[] {
    const key = objectKey(pod);
    const before = [...(this.#setsOfPod.get(key) ?? [])];
    for (const name of before) {
      this.#unlink(name, key);
    }
    return before;
  }

  /** A SidecarSet added (old undefined) or changed: rescanned when what it selects changed. */
  setChanged(old: ReadonlySidecarSet | undefined, set: ReadonlySidecarSet): void {
    if (old === undefined || scopeOf(old) !== scopeOf(set)) {
      this.#markDirty(set.metadata.name ?? '');
    }
  }

  /** A SidecarSet deleted: its entries go. */
  setDeleted(set: ReadonlySidecarSet): void {
    const name = set.metadata.name ?? '';
    for (const key of this.#podsOfSet.get(name) ?? []) {
      this.#unlink(name, key);
    }
    this.#podsOfSet.delete(name);
    this.#dirty.delete(name);
  }

  /** A namespace added (old undefined) or changed: the SidecarSets with a namespaceSelector are rescanned when its labels changed. */
  namespaceChanged(old: DeepReadonly<KubeObject> | undefined, namespace: DeepReadonly<KubeObject>): void {
    if (old !== undefined && labelsOf(old) === labelsOf(namespace)) {
      return;
    }
    for (const set of this.#sources.sets.list()) {
      if ((set.spec as Partial<ReadonlySidecarSet['spec']> | undefined)?.namespaceSelector !== undefined) {
        this.#markDirty(set.metadata.name ?? '');
      }
    }
  }

  /** The cached pods of the SidecarSet (those it selects and those that record it); rescans first when it must. */
  async podsOf(name: string): Promise<ReadonlyPod[]> {
    if (this.#dirty.has(name)) {
      await this.#rescan(name);
    }
    return [...(this.#podsOfSet.get(name) ?? [])].flatMap((key) => {
      const pod = this.#sources.pods.getByKey(key);
      return pod === undefined ? [] : [pod];
    });
  }

  /** How many pods and SidecarSets the index holds entries for (its memory). */
  size(): { readonly pods: number; readonly sets: number } {
    return { pods: this.#setsOfPod.size, sets: this.#podsOfSet.size };
  }

  #concerns(set: ReadonlySidecarSet, pod: ReadonlyPod, injected: ReadonlySet<string>): boolean {
    if (injected.has(set.metadata.name ?? '')) {
      return true;
    }
    // The cache holds SidecarSets as written (not parsed): one without a selector matches nothing.
    if ((set.spec as Partial<ReadonlySidecarSet['spec']> | undefined)?.selector === undefined) {
      return false;
    }
    const namespace = pod.metadata?.namespace ?? '';
    const labels = this.#sources.namespaces.get('', namespace)?.metadata?.labels;
    return sidecarSetMatchesPod(set, pod, { name: namespace, labels: labels ?? undefined });
  }

  #markDirty(name: string): void {
    this.#epoch += 1;
    this.#dirty.set(name, this.#epoch);
  }

  /** Matches every cached pod against the SidecarSet, a slice at a time; pods changed meanwhile were matched by their own events. */
  async #rescan(name: string): Promise<void> {
    const started = this.#dirty.get(name);
    const keys = new Set([
      ...this.#sources.pods.list().map((pod) => objectKey(pod)),
      ...(this.#podsOfSet.get(name) ?? []),
    ]);
    let matched = 0;
    for (const key of keys) {
      this.#rematch(name, key);
      matched += 1;
      if (matched % RESCAN_SLICE === 0) {
        await yieldToEventLoop();
      }
    }
    if (this.#dirty.get(name) === started) {
      this.#dirty.delete(name);
    }
  }

  /** One pod against one SidecarSet, both as the caches hold them now. */
  #rematch(name: string, key: string): void {
    const pod = this.#sources.pods.getByKey(key);
    const set = this.#sources.sets.get('', name);
    if (pod !== undefined && set !== undefined && this.#concerns(set, pod, injectedList(pod))) {
      this.#link(name, key);
    } else {
      this.#unlink(name, key);
    }
  }

  #link(name: string, key: string): void {
    let pods = this.#podsOfSet.get(name);
    if (pods === undefined) {
      pods = new Set();
      this.#podsOfSet.set(name, pods);
    }
    pods.add(key);
    let sets = this.#setsOfPod.get(key);
    if (sets === undefined) {
      sets = new Set();
      this.#setsOfPod.set(key, sets);
    }
    sets.add(name);
  }

  #unlink(name: string, key: string): void {
    const pods = this.#podsOfSet.get(name);
    pods?.delete(key);
    if (pods?.size === 0) {
      this.#podsOfSet.delete(name);
    }
    const sets = this.#setsOfPod.get(key);
    sets?.delete(name);
    if (sets?.size === 0) {
      this.#setsOfPod.delete(key);
    }
  }
}
