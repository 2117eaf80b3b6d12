import type { FeatureGates } from '@kruise-ts/app-config';
import { APPS_KRUISE_IO_GROUP, STATEFULSET_KIND, STATEFULSET_POD_NAME_LABEL } from '@kruise-ts/api';
import type { PersistentVolumeClaim, StatefulSet } from '@kruise-ts/api';
import { byControllerUid, CONTROLLER_UID_INDEX, requestForObject, requestKey } from '@kruise-ts/controller-runtime';
import type { Controller, DeepReadonly, Informer, Lister, Manager } from '@kruise-ts/controller-runtime';
import { labelForSharding } from '@kruise-ts/sharding';
import { podControlDeps } from '@kruise-ts/pod-control';
import { controllerRevisionResource } from '@kruise-ts/revision';
import { templateValidatorFor } from '@kruise-ts/template-validation';
import {
  podResource,
  pvcResource,
  soleSelectingOwner,
  trimCachedPods,
  watchOwnedClaims,
  watchOwnedPods,
  watchOwnWrites,
} from '@kruise-ts/workload';
import type { SelectingOwner } from '@kruise-ts/workload';

import { podOrdinal } from './ordinals.ts';
import { StatefulSetReconciler } from './reconciler.ts';
import { PVC_OWNED_BY_ASTS_ANNOTATION } from './sync/claim-resize.ts';
import { statefulSetResource } from './statefulset-resource.ts';

/** Options of the controller, decided by the app's main (flags), never read from the environment here. */
export interface StatefulSetControllerOptions {
  readonly featureGates: FeatureGates;
  /** Reconciles at once (OpenKruise's `--statefulset-workers`, default 3). */
  readonly workers: number;
  /** How long an unsatisfied expectation may block a set before it is dropped (default 5 min). */
  readonly expectationTimeoutMs: number;
  /**
   * `--statefulset-strip-pod-managed-fields` (default true): an in-place update's spec patch strips
   * the pod's managedFields, as CloneSet's does (README, "Where this differs from OpenKruise").
   * Absent: false.
   */
  readonly stripPodManagedFields?: boolean;
}

/** The controller's name: in logs, metrics (`controller="statefulset"`) and the work queue. */
export const STATEFULSET_CONTROLLER_NAME = 'statefulset';
/** The component name of its Events, as OpenKruise's. */
export const STATEFULSET_EVENT_COMPONENT = 'statefulset-controller';

/**
 * The set a claim belongs to, by its name `<template>-<set>-<ordinal>`: claims have no controller
 * reference (the retention policy decides their owners, often none), and their events must still
 * check off the set's expectations.
 */
function claimOwner(sets: Lister<StatefulSet>): (pvc: DeepReadonly<PersistentVolumeClaim>) => string | undefined {
  return (pvc) => {
    const namespace = pvc.metadata?.namespace ?? '';
    const name = pvc.metadata?.name ?? '';
    const set = sets.list({ namespace }).find((candidate) =>
      (candidate.spec.volumeClaimTemplates ?? []).some((template) => {
        const prefix = `${template.metadata?.name ?? ''}-`;
        return (
          name.startsWith(prefix) && podOrdinal(candidate.metadata.name ?? '', name.slice(prefix.length)) !== undefined
        );
      }),
    );
    return set === undefined ? undefined : requestKey({ namespace, name: set.metadata.name ?? '' });
  };
}

/**
 * A claim the controller expanded names its set in an annotation (OpenKruise's pvc event handler):
 * any change of it (a new capacity, FileSystemResizePending) may let that set's rolling update go on.
 */
function watchExpandedClaims(pvcs: Informer<PersistentVolumeClaim>, controller: Controller): void {
  pvcs.addEventHandler({
    onUpdate: (_old, pvc) => {
      const name = pvc.metadata?.annotations?.[PVC_OWNED_BY_ASTS_ANNOTATION];
      if (name !== undefined) {
        controller.queue.add(requestKey({ namespace: pvc.metadata?.namespace ?? '', name }));
      }
    },
  });
}

/** Sharded, the pods and revisions made before sharding was turned on are given their set's bucket, and orphan pods the bucket of the one set that would adopt them. */
function labelOwnedForSharding(manager: Manager, sets: Lister<SelectingOwner>): void {
  labelForSharding(manager, {
    resource: podResource,
    labelSelector: STATEFULSET_POD_NAME_LABEL,
    ownerKind: STATEFULSET_KIND,
    ownerGroup: APPS_KRUISE_IO_GROUP,
    orphanOwner: soleSelectingOwner(sets),
  });
  labelForSharding(manager, {
    resource: controllerRevisionResource,
    ownerKind: STATEFULSET_KIND,
    ownerGroup: APPS_KRUISE_IO_GROUP,
  });
}

/**
 * Registers the Advanced StatefulSet controller with a manager: informers (pods only those with the
 * pod-name label every StatefulSet pod carries), event handlers, the reconciler and its
 * expectations. The manager runs it while it holds the leader lease, or, sharded, on every replica
 * for the sets of the buckets the replica holds.
 */
export function setupStatefulSetController(manager: Manager, options: StatefulSetControllerOptions): Controller {
  const uidIndex = { [CONTROLLER_UID_INDEX]: byControllerUid };
  trimCachedPods(manager.informers);
  const sets = manager.informers.informerFor({ resource: statefulSetResource });
  // Sharded (docs/sharding.md): a replica caches only the pods and revisions of its buckets. Claims are
  // not: a StatefulSet's claims need not have an owner reference, so one made before sharding could
  // not be given its bucket, and a sharded cache would miss it.
  const pods = manager.informers.informerFor({
    resource: podResource,
    labelSelector: STATEFULSET_POD_NAME_LABEL,
    indexers: uidIndex,
    sharded: true,
  });
  const pvcs = manager.informers.informerFor({ resource: pvcResource });
  const revisions = manager.informers.informerFor({
    resource: controllerRevisionResource,
    indexers: uidIndex,
    sharded: true,
  });
  labelOwnedForSharding(manager, sets.lister());
  const deps = podControlDeps(manager, {
    controllerName: STATEFULSET_CONTROLLER_NAME,
    eventComponent: STATEFULSET_EVENT_COMPONENT,
    gates: options.featureGates,
    expectationTimeoutMs: options.expectationTimeoutMs,
  });
  const listers = {
    statefulSets: sets.lister(),
    pods: pods.lister(),
    pvcs: pvcs.lister(),
    revisions: revisions.lister(),
  };
  const controller = manager.newController({
    name: STATEFULSET_CONTROLLER_NAME,
    reconciler: new StatefulSetReconciler({
      ...deps,
      ...listers,
      options: { stripPodManagedFields: options.stripPodManagedFields ?? false },
      templateValidator: templateValidatorFor(manager),
    }),
    workers: options.workers,
    shardedBy: sets,
  });
  watchOwnWrites(sets, deps.resourceVersionExpectations);
  controller.watch(sets, requestForObject());
  const handlerDeps = {
    ...deps,
    owner: { group: APPS_KRUISE_IO_GROUP, kind: STATEFULSET_KIND },
    queue: controller.queue,
    owners: sets.lister(),
  };
  watchOwnedPods(pods, handlerDeps);
  watchOwnedClaims(pvcs, handlerDeps, claimOwner(sets.lister()));
  watchExpandedClaims(pvcs, controller);
  controller.addSource(pods);
  controller.addSource(pvcs);
  controller.addSource(revisions);
  return controller;
}
