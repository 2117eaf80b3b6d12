import type { Pod, SidecarSet } from '@kruise-ts/api';
import type {
  Controller,
  DeepReadonly,
  Informer,
  KubeObject,
  Lister,
  Manager,
  Request,
  RequestMapper,
} from '@kruise-ts/controller-runtime';
import { podResource, resourceVersionExpectationsFor, trimCachedPods, watchOwnWrites } from '@kruise-ts/workload';
import type { ResourceVersionExpectations } from '@kruise-ts/workload';

import { sidecarSetRevisionInformer } from './revision/revision-informer.ts';

import { sidecarSetsMayOverlap } from './conflict/sidecarset-conflicts.ts';
import { SidecarSetPodIndex } from './pod-index/sidecarset-pod-index.ts';
import { SidecarSetReconciler } from './reconciler.ts';
import { namespaceResource, sidecarSetResource } from './sidecarset-resource.ts';

/** Options of the controller, decided by the app's main (flags). */
export interface SidecarSetControllerOptions {
  /** Reconciles at once (OpenKruise's `--sidecarset-workers`, default 3). */
  readonly workers: number;
  /** Namespaces the pod webhook excludes (kube-system, the controllers' own): their pods are never reported as missed. */
  readonly excludedNamespaces: readonly string[];
  /**
   * The manager's `--namespace` (empty: all). A manager restricted to one namespace caches only that
   * namespace's pods, so it can only give a true status to SidecarSets scoped to it (`spec.namespace`);
   * it leaves the others to a cluster-wide manager.
   */
  readonly namespace: string;
  /** Where the SidecarSets' ControllerRevisions live: the controllers' own namespace (OpenKruise's kruise-system). */
  readonly revisionNamespace: string;
  /** `--expectation-timeout`: how long a pod our write changed may stay older in the cache before the upgrade goes on without it (default 5 min). */
  readonly expectationTimeoutMs?: number | undefined;
  /** The PodWebhook gate (default on); off, nothing injects, so no pod is reported as missed. */
  readonly podWebhook?: boolean | undefined;
}

/** The controller's name: in logs, metrics (`controller="sidecarset"`) and the work queue. */
export const SIDECARSET_CONTROLLER_NAME = 'sidecarset';
/** The component name of its Events, as OpenKruise's. */
export const SIDECARSET_EVENT_COMPONENT = 'sidecarset-controller';

/**
 * The SidecarSet itself and every other one that may select the same pods: a change of one can start
 * or end a conflict of another (the younger one carries the Conflict condition).
 */
function setAndOverlapping(sets: Lister<SidecarSet>): RequestMapper<SidecarSet> {
  return (changed: DeepReadonly<SidecarSet>): Request[] => {
    const others = sets
      .list()
      .filter((set) => set.metadata.name !== changed.metadata.name && sidecarSetsMayOverlap(set, changed));
    return [changed, ...others].map((set) => ({ namespace: '', name: set.metadata.name ?? '' }));
  };
}

/** Every SidecarSet with a namespaceSelector, when a namespace (its labels) changes. */
function setsWithNamespaceSelector(sets: Lister<SidecarSet>): RequestMapper<KubeObject> {
  return () =>
    sets
      .list()
      .filter((set) => set.spec.namespaceSelector !== undefined)
      .map((set) => ({ namespace: '', name: set.metadata.name ?? '' }));
}

/**
 * Registers the SidecarSet controller with a manager: informers (SidecarSets, every pod, namespaces),
 * event handlers and the reconciler. The manager runs it while it holds the leader lease.
 */
export function setupSidecarSetController(manager: Manager, options: SidecarSetControllerOptions): Controller {
  trimCachedPods(manager.informers);
  const sets = manager.informers.informerFor({ resource: sidecarSetResource });
  const pods = manager.informers.informerFor({ resource: podResource });
  const namespaces = manager.informers.informerFor({ resource: namespaceResource });
  const podIndex = new SidecarSetPodIndex({
    sets: sets.lister(),
    pods: pods.lister(),
    namespaces: namespaces.lister(),
  });
  const expectations = resourceVersionExpectationsFor(manager, SIDECARSET_CONTROLLER_NAME, {
    timeoutMs: options.expectationTimeoutMs,
  });
  const reconciler = new SidecarSetReconciler({
    api: manager.client,
    recorder: manager.eventRecorder(SIDECARSET_EVENT_COMPONENT),
    clock: { now: () => Date.now() },
    sidecarSets: sets.lister(),
    podIndex,
    resourceVersionExpectations: expectations,
    namespaces: namespaces.lister(),
    revisions: sidecarSetRevisionInformer(manager, options.revisionNamespace).lister(),
    revisionNamespace: options.revisionNamespace,
    excludedNamespaces: new Set(options.excludedNamespaces),
    namespace: options.namespace,
    reportMissed: options.podWebhook !== false,
  });
  const controller = manager.newController({ name: SIDECARSET_CONTROLLER_NAME, reconciler, workers: options.workers });
  sets.addEventHandler({
    onAdd: (set) => {
      podIndex.setChanged(undefined, set);
    },
    onUpdate: (old, set) => {
      podIndex.setChanged(old, set);
    },
    onDelete: (set) => {
      podIndex.setDeleted(set);
    },
  });
  namespaces.addEventHandler({
    onAdd: (namespace) => {
      podIndex.namespaceChanged(undefined, namespace);
    },
    onUpdate: (old, namespace) => {
      podIndex.namespaceChanged(old, namespace);
    },
  });
  watchOwnWrites(sets, expectations);
  controller.watch(sets, setAndOverlapping(sets.lister()));
  watchPods(controller, pods, { podIndex, expectations });
  controller.watch(namespaces, setsWithNamespaceSelector(sets.lister()));
  return controller;
}

/**
 * Pod events keep the index and the expectations, and queue the SidecarSets the pod concerned before
 * or concerns now (those that select it, and those it records as injected).
 */
function watchPods(
  controller: Controller,
  pods: Informer<Pod>,
  input: { readonly podIndex: SidecarSetPodIndex; readonly expectations: ResourceVersionExpectations },
): void {
  const enqueue = (names: readonly string[]): void => {
    for (const name of names) {
      controller.enqueue({ namespace: '', name });
    }
  };
  controller.addSource(pods);
  pods.addEventHandler({
    onAdd: (pod) => {
      input.expectations.observe(pod);
      enqueue(input.podIndex.podChanged(pod));
    },
    onUpdate: (_old, pod) => {
      input.expectations.observe(pod);
      enqueue(input.podIndex.podChanged(pod));
    },
    onDelete: (pod) => {
      input.expectations.delete(pod);
      enqueue(input.podIndex.podDeleted(pod));
    },
  });
}
