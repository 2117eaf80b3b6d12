import type { FeatureGates } from '@kruise-ts/app-config';
import { APPS_KRUISE_IO_GROUP, CLONESET_INSTANCE_ID_LABEL, CLONESET_KIND } from '@kruise-ts/api';
import { byControllerUid, CONTROLLER_UID_INDEX, requestForObject } from '@kruise-ts/controller-runtime';
import type { Controller, Manager } from '@kruise-ts/controller-runtime';
import { labelForSharding } from '@kruise-ts/sharding';
import { podControlDeps } from '@kruise-ts/pod-control';
import { controllerRevisionResource } from '@kruise-ts/revision';
import { templateValidatorFor } from '@kruise-ts/template-validation';
import {
  nodeResource,
  podResource,
  pvcResource,
  soleSelectingOwner,
  trimCachedNodes,
  trimCachedPods,
  watchOwnedClaims,
  watchOwnedPods,
  watchOwnWrites,
} from '@kruise-ts/workload';

import { cloneSetResource } from './cloneset-resource.ts';
import { CloneSetReconciler } from './reconciler.ts';

/** Options of the CloneSet controller, decided by the app's main (flags), never read from the environment here. */
export interface CloneSetControllerOptions {
  readonly featureGates: FeatureGates;
  /** Reconciles at once (OpenKruise's `--cloneset-workers`, default 3). */
  readonly workers: number;
  /** How long an unsatisfied expectation may block a CloneSet before it is dropped (default 5 min). */
  readonly expectationTimeoutMs: number;
  /** `--cloneset-scaling-exclude-preparing-delete`. */
  readonly scalingExcludePreparingDelete: boolean;
  /**
   * `--cloneset-strip-pod-managed-fields` (default true): an in-place update's spec patch strips the
   * pod's managedFields, so that the API server stops tracking field ownership of the pod
   * (apps/cloneset/README.md, "Where this differs from OpenKruise"). Absent: false.
   */
  readonly stripPodManagedFields?: boolean;
  /**
   * `--cloneset-recreate-without-readiness-gates` (default false): pods of ReCreate CloneSets are
   * created without readiness gates, so they need no status write to become Ready (podReadinessGates
   * in sync/pod-factory.ts). Absent: false.
   */
  readonly reCreateWithoutReadinessGates?: boolean;
}

/** The controller's name: in logs, metrics (`controller="cloneset"`) and the work queue. */
export const CLONESET_CONTROLLER_NAME = 'cloneset';
/** The component name of its Events, as OpenKruise's. */
export const CLONESET_EVENT_COMPONENT = 'cloneset-controller';

/**
 * The informers the controller reads. Pods and nodes are cached without the fields no workload
 * controller reads (most of a pod's heap; see trimPodForCache).
 */
function cloneSetInformers(manager: Manager) {
  const uidIndex = { [CONTROLLER_UID_INDEX]: byControllerUid };
  trimCachedPods(manager.informers);
  trimCachedNodes(manager.informers);
  return {
    cloneSets: manager.informers.informerFor({ resource: cloneSetResource }),
    // Sharded (docs/sharding.md): a replica caches only the pods, claims and revisions of its buckets.
    pods: manager.informers.informerFor({
      resource: podResource,
      labelSelector: CLONESET_INSTANCE_ID_LABEL,
      indexers: uidIndex,
      sharded: true,
    }),
    pvcs: manager.informers.informerFor({
      resource: pvcResource,
      labelSelector: CLONESET_INSTANCE_ID_LABEL,
      indexers: uidIndex,
      sharded: true,
    }),
    revisions: manager.informers.informerFor({
      resource: controllerRevisionResource,
      indexers: uidIndex,
      sharded: true,
    }),
    nodes: manager.informers.informerFor({ resource: nodeResource }),
  };
}

/**
 * Registers the CloneSet controller with a manager: informers (pods and PVCs only those with a
 * CloneSet instance id, so the cache does not hold every pod of the cluster), event handlers, the
 * reconciler and its expectations. The manager runs it while it holds the leader lease, or, sharded,
 * on every replica for the CloneSets of the buckets the replica holds.
 */
export function setupCloneSetController(manager: Manager, options: CloneSetControllerOptions): Controller {
  const { cloneSets, pods, pvcs, revisions, nodes } = cloneSetInformers(manager);
  labelForSharding(manager, {
    resource: podResource,
    labelSelector: CLONESET_INSTANCE_ID_LABEL,
    ownerKind: CLONESET_KIND,
    ownerGroup: APPS_KRUISE_IO_GROUP,
    orphanOwner: soleSelectingOwner(cloneSets.lister()),
  });
  labelForSharding(manager, {
    resource: pvcResource,
    labelSelector: CLONESET_INSTANCE_ID_LABEL,
    ownerKind: CLONESET_KIND,
    ownerGroup: APPS_KRUISE_IO_GROUP,
  });
  labelForSharding(manager, {
    resource: controllerRevisionResource,
    ownerKind: CLONESET_KIND,
    ownerGroup: APPS_KRUISE_IO_GROUP,
  });
  const deps = podControlDeps(manager, {
    controllerName: CLONESET_CONTROLLER_NAME,
    eventComponent: CLONESET_EVENT_COMPONENT,
    gates: options.featureGates,
    expectationTimeoutMs: options.expectationTimeoutMs,
  });
  const reconciler = new CloneSetReconciler({
    ...deps,
    cloneSets: cloneSets.lister(),
    pods: pods.lister(),
    pvcs: pvcs.lister(),
    revisions: revisions.lister(),
    nodes: nodes.lister(),
    options: {
      scalingExcludePreparingDelete: options.scalingExcludePreparingDelete,
      stripPodManagedFields: options.stripPodManagedFields ?? false,
      reCreateWithoutReadinessGates: options.reCreateWithoutReadinessGates ?? false,
    },
    templateValidator: templateValidatorFor(manager),
  });
  const controller = manager.newController({
    name: CLONESET_CONTROLLER_NAME,
    reconciler,
    workers: options.workers,
    shardedBy: cloneSets,
  });
  watchOwnWrites(cloneSets, deps.resourceVersionExpectations);
  controller.watch(cloneSets, requestForObject());
  const handlerDeps = {
    ...deps,
    owner: { group: APPS_KRUISE_IO_GROUP, kind: CLONESET_KIND },
    queue: controller.queue,
    owners: cloneSets.lister(),
  };
  watchOwnedPods(pods, handlerDeps);
  watchOwnedClaims(pvcs, handlerDeps);
  controller.addSource(pods);
  controller.addSource(pvcs);
  controller.addSource(revisions);
  controller.addSource(nodes);
  return controller;
}
