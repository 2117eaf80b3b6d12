/**
 * Objects made before sharding (by OpenKruise, or an older kruise-ts) have no bucket label, so a
 * sharded cache never sees them (docs/sharding.md, "Pods from before sharding"); nor does it see one
 * whose label is malformed, and one whose label names another bucket is seen by that bucket's holder
 * instead of its owner's. Each replica watches the app's objects without a valid bucket label, labels
 * those whose owner's bucket it holds at a bounded rate, and holds back the reconciles of their owners
 * until none is left: a controller that saw only part of its pods could create too many. It also
 * relabels the objects of its sharded caches whose label names the wrong bucket.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { Logger } from 'pino';

import {
  controllerRef,
  Informer,
  isAborted,
  isConflict,
  isNotFound,
  joinSelectors,
  objectKey,
  TokenBucket,
} from '@kruise-ts/controller-runtime';
import type {
  DeepReadonly,
  KubeObject,
  ListWatcher,
  Runnable,
  WatchScope,
  Writer,
} from '@kruise-ts/controller-runtime';

import { bucketOfKey } from './bucket.ts';
import type { BucketGate } from './bucket-gate.ts';
import { labelPatch, labelRepair, ownerFinder, WITHOUT_A_VALID_BUCKET } from './bucket-label-repair.ts';
import type { LabelledKind, LabelRepair, OwnerOf } from './bucket-label-repair.ts';

export type { LabelledKind } from './bucket-label-repair.ts';

export interface BucketLabellerOptions {
  /** Writes the labels (the process's client, under the guard of its fence). */
  readonly client: Pick<Writer, 'patch'>;
  /** Lists and watches a scope (the API's; a test's own). */
  readonly listWatcher: (scope: WatchScope<KubeObject>) => ListWatcher<KubeObject>;
  readonly gate: BucketGate;
  readonly logger: Logger;
  /** Only this namespace, when the process is restricted to one. */
  readonly namespace?: string | undefined;
  /** Label patches per second at most. */
  readonly qps: number;
}

const OWNER_INDEX = 'owner';
/** Orphans, under one key: their owner is looked up when asked, as workloads come and change selectors. */
const ORPHAN_INDEX = 'orphan';
/** How often the labeller looks for work when nothing woke it. */
const SCAN_INTERVAL_MS = 500;

/** An object to relabel, as it was judged (its resourceVersion conditions the patch). */
interface Relabel {
  readonly kind: LabelledKind;
  readonly object: DeepReadonly<KubeObject>;
  readonly repair: LabelRepair;
}

export class BucketLabeller implements Runnable {
  readonly needLeaderElection = false;
  readonly #options: BucketLabellerOptions;
  readonly #informers: {
    readonly kind: LabelledKind;
    readonly informer: Informer<KubeObject>;
    readonly ownerOf: OwnerOf;
  }[] = [];
  readonly #limiter: TokenBucket;
  /** Objects in this replica's sharded caches whose bucket label names a bucket other than their owner's, by key. */
  readonly #misplaced = new Map<string, Relabel>();
  #started = false;

  constructor(options: BucketLabellerOptions) {
    this.#options = options;
    this.#limiter = new TokenBucket({ qps: options.qps, burst: Math.max(1, Math.ceil(options.qps)) });
    options.gate.addDeferral((key) => this.blocks(key));
  }

  /** Watches the objects of a kind without a valid bucket label; before `start`. */
  add<T extends KubeObject>(typed: LabelledKind<T>): void {
    // Only metadata is read, whatever the kind.
    const kind = typed as unknown as LabelledKind;
    if (this.#started) {
      throw new Error('the bucket labeller takes kinds before it starts');
    }
    const ownerOf = ownerFinder(kind);
    const namespace = kind.resource.namespaced && this.#options.namespace !== '' ? this.#options.namespace : undefined;
    const informer = new Informer<KubeObject>({
      listWatcher: this.#options.listWatcher({
        resource: kind.resource,
        namespace,
        labelSelector: joinSelectors(kind.labelSelector, WITHOUT_A_VALID_BUCKET),
      }),
      description: `unlabelled ${kind.resource.plural}`,
      logger: this.#options.logger,
      // Only candidates: a native StatefulSet's pods (same pod-name label) or another kind's revisions
      // never enter the cache, so they are never scanned and never counted.
      keep: (object) => ownerOf.isCandidate(object),
      // Only whose they are matters here (and an orphan's labels, which say who would adopt it): a
      // migration's worth of revisions' data would be wasted memory.
      transform: kind.orphanOwner === undefined ? ownershipOnly : ownershipAndLabels,
      indexers: {
        [OWNER_INDEX]: (object) => {
          const owner = ownerOf.controller(object);
          return owner === undefined ? [] : [owner];
        },
        [ORPHAN_INDEX]: (object) => (kind.orphanOwner !== undefined && controllerRef(object) === undefined ? [''] : []),
      },
    });
    this.#informers.push({ kind, informer, ownerOf });
  }

  /** Whether the workload `key` still has objects without a valid bucket label (or they are not known yet). */
  blocks(key: string): boolean {
    return this.#informers.some(({ informer, ownerOf }) => {
      const lister = informer.lister();
      return (
        !informer.hasSynced() ||
        lister.byIndex(OWNER_INDEX, key).length > 0 ||
        lister.byIndex(ORPHAN_INDEX, '').some((orphan) => ownerOf.labelFor(orphan) === key)
      );
    });
  }

  /** Objects still waiting for their bucket label (missing or malformed), across kinds: those with an owner to take it from. */
  pending(): number {
    return this.#informers.reduce(
      (sum, { informer, ownerOf }) =>
        sum +
        informer
          .lister()
          .list()
          .filter((object) => ownerOf.labelFor(object) !== undefined).length,
      0,
    );
  }

  /** Objects its informers hold, across kinds: candidates only, with or without an owner to label them from yet. */
  cachedCount(): number {
    return this.#informers.reduce((sum, { informer }) => sum + informer.cachedCount(), 0);
  }

  async start(signal: AbortSignal): Promise<void> {
    this.#started = true;
    this.#watchMisplaced();
    const running = this.#informers.map(({ informer }) => informer.run(signal));
    while (!signal.aborted) {
      await this.#relabelMisplaced(signal);
      await this.#labelSome(signal);
      // Ends at once on abort: an unreferenced timer here would let the process exit in the middle of a shutdown.
      await sleep(SCAN_INTERVAL_MS, undefined, { signal }).catch(() => undefined);
    }
    await Promise.all(running);
  }

  /**
   * A well-formed label naming the wrong bucket hides an object from its owner's replica, and shows it
   * to the holder of the bucket it names: that replica, this one when it holds it, repairs it. Checked
   * per event of the sharded caches, so an idle replica scans nothing.
   */
  #watchMisplaced(): void {
    for (const { kind, ownerOf } of this.#informers) {
      for (const cache of this.#options.gate.shardedCachesOf(kind.resource)) {
        const check = (object: DeepReadonly<KubeObject>): void => {
          const key = `${kind.resource.plural}:${objectKey(object)}`;
          const repair = labelRepair(ownerOf, object);
          if (repair === undefined) {
            this.#misplaced.delete(key);
          } else {
            this.#misplaced.set(key, { kind, object, repair });
          }
        };
        cache.addEventHandler({
          onAdd: check,
          onUpdate: (_old, object) => {
            check(object);
          },
          onDelete: (object) => {
            this.#misplaced.delete(`${kind.resource.plural}:${objectKey(object)}`);
          },
        });
      }
    }
  }

  /** Relabels what the rate allows of the misplaced objects; one whose patch failed for a passing reason is tried again. */
  async #relabelMisplaced(signal: AbortSignal): Promise<void> {
    for (const [key, entry] of [...this.#misplaced]) {
      if (!this.#limiter.tryAccept()) {
        return;
      }
      this.#misplaced.delete(key);
      // A conflict means the object changed: its update event judges it again.
      if ((await this.#label(entry, signal)) === 'retry' && !this.#misplaced.has(key)) {
        this.#misplaced.set(key, entry);
      }
    }
  }

  /** Labels what the rate allows of the unlabelled objects whose owner's bucket this replica holds. */
  async #labelSome(signal: AbortSignal): Promise<void> {
    for (const { kind, informer, ownerOf } of this.#informers) {
      for (const object of informer.lister().list()) {
        const repair = labelRepair(ownerOf, object);
        if (
          repair === undefined ||
          this.#options.gate.state(bucketOfKey(repair.owner)) === undefined ||
          !this.#limiter.tryAccept()
        ) {
          continue;
        }
        await this.#label({ kind, object, repair }, signal);
      }
    }
  }

  /** Patches the label; what became of it: done (or gone), changed meanwhile, or worth another try. */
  async #label(input: Relabel, signal: AbortSignal): Promise<'done' | 'changed' | 'retry'> {
    const { kind, object, repair } = input;
    const key = { namespace: object.metadata?.namespace ?? '', name: object.metadata?.name ?? '' };
    try {
      await this.#options.client.patch(kind.resource, key, {
        ...labelPatch(repair, object.metadata?.resourceVersion),
        signal,
      });
      return 'done';
    } catch (error) {
      if (isAborted(signal) || isNotFound(error)) {
        return 'done';
      }
      if (isConflict(error)) {
        this.#options.logger.debug(
          { object: objectKey(object), resource: kind.resource.plural },
          'The object changed before its bucket label was written; judging it again',
        );
        return 'changed';
      }
      this.#options.logger.warn(
        { err: error, object: objectKey(object), resource: kind.resource.plural },
        'Could not write the bucket label; retrying',
      );
      return 'retry';
    }
  }
}

/** The object's name, namespace, version and owners: all the labeller reads of it. */
function ownershipOnly(object: KubeObject): KubeObject {
  const { name, namespace, resourceVersion, ownerReferences } = object.metadata ?? {};
  return {
    metadata: {
      ...(name === undefined ? {} : { name }),
      ...(namespace === undefined ? {} : { namespace }),
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
      ...(ownerReferences === undefined ? {} : { ownerReferences }),
    },
  };
}

/** Ownership, and the labels an orphan's would-be owner is found by. */
function ownershipAndLabels(object: KubeObject): KubeObject {
  const labels = object.metadata?.labels;
  const kept = ownershipOnly(object);
  return labels === undefined ? kept : { metadata: { ...kept.metadata, labels } };
}
