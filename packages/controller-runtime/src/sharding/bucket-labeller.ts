/**
 * Objects made before sharding (by OpenKruise, or an older kruise-ts) have no bucket label, so a
 * sharded cache never sees them (docs/sharding.md, "Pods from before sharding"). Each replica watches
 * the unlabelled ones of its app, labels those whose owner's bucket it holds at a bounded rate, and
 * holds back the reconciles of their owners until none is left: a controller that saw only part of
 * its pods could create too many.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { Logger } from 'pino';

import { Informer } from '../cache/informer.ts';
import { apiListWatcher, joinSelectors } from '../cache/list-watcher.ts';
import { isNotFound } from '../client/api-error.ts';
import type { Client } from '../client/client.ts';
import { controllerRef, objectKey } from '../client/kube-object.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { ResourceType } from '../client/resource-type.ts';
import { requestForControllerOwner } from '../controller/event-mappers.ts';
import { TokenBucket } from '../flowcontrol/token-bucket.ts';
import type { Runnable } from '../manager/runnable.ts';
import { requestKey } from '../reconcile/reconcile.ts';
import { isAborted } from '../util/aborted.ts';
import type { DeepReadonly } from '../util/deep-readonly.ts';
import { bucketLabelValue, bucketOfKey, parseBucketLabel, SHARD_BUCKET_LABEL, SHARD_BUCKETS } from './bucket.ts';
import type { BucketGate } from './bucket-gate.ts';

/** Objects of one kind that an app's controller creates for its workloads. */
export interface LabelledKind<T extends KubeObject = KubeObject> {
  readonly resource: ResourceType<T>;
  /** The app's own selector for them (a CloneSet's pods: those with an instance id), if any. */
  readonly labelSelector?: string | undefined;
  /** The workload kind and API group whose controller reference marks them as the app's (`CloneSet`, `apps.kruise.io`). */
  readonly ownerKind: string;
  readonly ownerGroup: string;
  /**
   * For an object without a controller (an orphan its app would adopt): the `namespace/name` of the
   * one workload that would adopt it, or undefined (none, or more than one). It is labelled with that
   * workload's bucket, so that the holder's cache sees and adopts it, as a single leader would.
   */
  readonly orphanOwner?: ((object: DeepReadonly<KubeObject>) => string | undefined) | undefined;
}

export interface BucketLabellerOptions {
  readonly client: Client;
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
/**
 * Objects whose bucket label is missing or not a bucket (`notin` also selects objects without the
 * label): a malformed value (`x`, `64`, `07`) hides an object from every replica's sharded cache as
 * surely as a missing one, so both are repaired alike.
 */
const WITHOUT_A_VALID_BUCKET = `${SHARD_BUCKET_LABEL} notin (${Array.from({ length: SHARD_BUCKETS }, (_, bucket) => bucketLabelValue(bucket)).join(',')})`;
/** How often the labeller looks for work when nothing woke it. */
const SCAN_INTERVAL_MS = 500;

export class BucketLabeller implements Runnable {
  readonly needLeaderElection = false;
  readonly #options: BucketLabellerOptions;
  readonly #informers: { readonly kind: LabelledKind; readonly informer: Informer<KubeObject>; readonly ownerOf: OwnerOf }[] = [];
  readonly #limiter: TokenBucket;
  /** Objects in this replica's sharded caches whose bucket label names a bucket other than their owner's, by key. */
  readonly #misplaced = new Map<string, { readonly kind: LabelledKind; readonly object: KubeObject; readonly owner: string }>();
  #started = false;

  constructor(options: BucketLabellerOptions) {
    this.#options = options;
    this.#limiter = new TokenBucket({ qps: options.qps, burst: Math.max(1, Math.ceil(options.qps)) });
    options.gate.addDeferral((key) => this.blocks(key));
  }

  /** Watches the unlabelled objects of a kind; before `start`. */
  add<T extends KubeObject>(typed: LabelledKind<T>): void {
    // Only metadata is read, whatever the kind.
    const kind = typed as unknown as LabelledKind;
    if (this.#started) {
      throw new Error('the bucket labeller takes kinds before it starts');
    }
    const ownerOf = ownerFinder(kind);
    const scope = { resource: kind.resource, namespace: kind.resource.namespaced && this.#options.namespace !== '' ? this.#options.namespace : undefined, labelSelector: joinSelectors(kind.labelSelector, WITHOUT_A_VALID_BUCKET) };
    const informer = new Informer<KubeObject>({
      listWatcher: apiListWatcher(this.#options.client, scope),
      description: `unlabelled ${kind.resource.plural}`,
      logger: this.#options.logger,
      // Only candidates: what the app's controller owns, and orphans it could adopt. A native
      // StatefulSet's pods (same pod-name label) or another kind's revisions are never ours to label,
      // and cached they would be scanned for ever and never leave the backlog.
      keep: (object) => ownerOf.controller(object) !== undefined || (kind.orphanOwner !== undefined && controllerRef(object) === undefined),
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

  /** Whether the workload `key` still has unlabelled objects (or they are not known yet). */
  blocks(key: string): boolean {
    return this.#informers.some(({ informer, ownerOf }) => {
      const lister = informer.lister();
      return !informer.hasSynced() || lister.byIndex(OWNER_INDEX, key).length > 0 || lister.byIndex(ORPHAN_INDEX, '').some((orphan) => ownerOf.labelFor(orphan) === key);
    });
  }

  /** Objects still waiting for their bucket label (missing or malformed), across kinds: those with an owner to take it from. */
  pending(): number {
    return this.#informers.reduce((sum, { informer, ownerOf }) => sum + informer.lister().list().filter((object) => ownerOf.labelFor(object) !== undefined).length, 0);
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
          const owner = ownerOf.labelFor(object);
          const key = `${kind.resource.plural}:${objectKey(object)}`;
          if (owner !== undefined && parseBucketLabel(object.metadata?.labels?.[SHARD_BUCKET_LABEL]) !== bucketOfKey(owner)) {
            this.#misplaced.set(key, { kind, object: object, owner });
          } else {
            this.#misplaced.delete(key);
          }
        };
        cache.addEventHandler({ onAdd: check, onUpdate: (_old, object) => {
          check(object);
        } });
      }
    }
  }

  /** Relabels what the rate allows of the misplaced objects (the patch sets the owner's bucket). */
  async #relabelMisplaced(signal: AbortSignal): Promise<void> {
    for (const [key, entry] of [...this.#misplaced]) {
      if (!this.#limiter.tryAccept()) {
        return;
      }
      this.#misplaced.delete(key);
      await this.#label(entry, signal);
    }
  }

  /** Labels what the rate allows of the unlabelled objects whose owner's bucket this replica holds. */
  async #labelSome(signal: AbortSignal): Promise<void> {
    for (const { kind, informer, ownerOf } of this.#informers) {
      for (const object of informer.lister().list()) {
        const owner = ownerOf.labelFor(object);
        if (owner === undefined || this.#options.gate.state(bucketOfKey(owner)) === undefined || !this.#limiter.tryAccept()) {
          continue;
        }
        await this.#label({ kind, object, owner }, signal);
      }
    }
  }

  async #label(input: { kind: LabelledKind; object: KubeObject; owner: string }, signal: AbortSignal): Promise<void> {
    const { kind, object, owner } = input;
    const key = { namespace: object.metadata?.namespace ?? '', name: object.metadata?.name ?? '' };
    try {
      await this.#options.client.patch(kind.resource, key, { type: 'merge', body: { metadata: { labels: { [SHARD_BUCKET_LABEL]: bucketLabelValue(bucketOfKey(owner)) } } }, signal });
    } catch (error) {
      if (!isAborted(signal) && !isNotFound(error)) {
        this.#options.logger.warn({ err: error, object: objectKey(object), resource: kind.resource.plural }, 'Could not add the bucket label; retrying');
      }
    }
  }
}

/** The object's name, namespace and owners: all the labeller reads. */
function ownershipOnly(object: KubeObject): KubeObject {
  const { name, namespace, ownerReferences } = object.metadata ?? {};
  return { metadata: { ...(name === undefined ? {} : { name }), ...(namespace === undefined ? {} : { namespace }), ...(ownerReferences === undefined ? {} : { ownerReferences }) } };
}

/** Ownership, and the labels an orphan's would-be owner is found by. */
function ownershipAndLabels(object: KubeObject): KubeObject {
  const labels = object.metadata?.labels;
  const kept = ownershipOnly(object);
  return labels === undefined ? kept : { metadata: { ...kept.metadata, labels } };
}

/** Whose bucket an unlabelled object of one kind gets. */
interface OwnerOf {
  /** `namespace/name` of its controller when it is of the kind (a native StatefulSet's pods are not ours to label). */
  controller(object: KubeObject): string | undefined;
  /** The workload whose bucket it gets: its controller of the kind, or, for an orphan, the one that would adopt it. */
  labelFor(object: DeepReadonly<KubeObject>): string | undefined;
}

function ownerFinder(kind: LabelledKind): OwnerOf {
  const mapper = requestForControllerOwner({ group: kind.ownerGroup, kind: kind.ownerKind });
  const controller = (object: KubeObject): string | undefined => {
    const [owner] = mapper(object);
    return owner === undefined ? undefined : requestKey(owner);
  };
  return {
    controller,
    labelFor: (object) => controller(object) ?? (controllerRef(object) === undefined ? kind.orphanOwner?.(object) : undefined),
  };
}
