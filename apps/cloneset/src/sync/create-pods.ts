import { CLONESET_INSTANCE_ID_LABEL, CloneSetEventReason } from '@kruise-ts/api';
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { isAlreadyExists } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { newClaimsForInstance } from '@kruise-ts/pvc-instance';
import { POD_WRITE_CONCURRENCY, podResource, pvcResource, slowStartBatch } from '@kruise-ts/workload';

import { newPod } from './pod-factory.ts';
import { revisionNameOf } from './sync-context.ts';
import { initializePodReadinessGates } from '../readiness.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

export interface CreatePodsRequest {
  readonly expectedCreations: number;
  /** How many of them at the current (old) revision; the rest at the update revision. */
  readonly expectedCurrentCreations: number;
  /** Instance ids, sorted; the first ones go to current-revision pods. */
  readonly instanceIds: readonly string[];
}

/** The pods to create, current-revision ones first (OpenKruise's `NewVersionedPods`). */
export function buildPods(ctx: SyncContext, state: SyncState, request: CreatePodsRequest): Pod[] {
  const currentCount = Math.min(request.expectedCurrentCreations, request.expectedCreations);
  const now = new Date(ctx.now());
  return request.instanceIds.slice(0, request.expectedCreations).map((instanceId, index) => {
    const current = index < currentCount;
    return newPod({
      cs: state.cs,
      controllerRef: state.controllerRef,
      template: current ? state.currentTemplate : state.updateTemplate,
      revisionName: revisionNameOf(current ? state.currentRevision : state.updateRevision),
      instanceId,
      shortHash: ctx.gates.enabled('CloneSetShortHash'),
      reCreateWithoutReadinessGates: ctx.reCreateWithoutReadinessGates,
      now,
    });
  });
}

/**
 * Pods created at once at most. 256 at once made the API server's p99 for creations 1.55 s when
 * scaling out to 5,000 pods; 64 keeps it at 452 ms for the same rollout time (docs/benchmarks.md).
 */
const MAX_CREATE_BATCH = POD_WRITE_CONCURRENCY;

/**
 * Creates the pods in slow-start batches (1, 2, 4, …, or from where the CloneSet's last creations
 * that all went through got to: SlowStartMemory; a failing batch stops the rest), each after its
 * missing PVCs, recording scale expectations first and rolling back those of pods never created.
 * Each created pod's readiness-gate status write starts right after its creation, outside the
 * batches: slow start is about failing creations, and waiting for the status write as well made
 * every batch step two requests long. Returns the pods created, as the API server returned them
 * (after that write when it went through); throws the first failure after that bookkeeping when
 * none was created.
 */
export async function createPods(ctx: SyncContext, state: SyncState, pods: readonly Pod[]): Promise<DeepReadonly<Pod>[]> {
  for (const pod of pods) {
    ctx.scaleExpectations.expect(state.key, 'create', pod.metadata?.name ?? '');
  }
  const created = new Map<string, DeepReadonly<Pod>>();
  const initializing: Promise<void>[] = [];
  const result = await slowStartBatch({
    count: pods.length,
    initialBatchSize: ctx.createBatchSizes.initialBatchSize(state.key),
    maxBatchSize: MAX_CREATE_BATCH,
    run: async (index) => {
      const pod = pods[index];
      if (pod === undefined) {
        return;
      }
      const name = pod.metadata?.name ?? '';
      const createdPod = await createOnePod(ctx, state, pod);
      created.set(name, createdPod);
      initializing.push(
        initializeCreatedPod(ctx, createdPod).then((initialized) => {
          created.set(name, initialized);
        }),
      );
    },
  });
  await Promise.all(initializing);
  ctx.createBatchSizes.record(state.key, result);
  forgetUncreated(ctx, state.key, pods.filter((pod) => !created.has(pod.metadata?.name ?? '')));
  const [firstError] = result.errors;
  if (firstError !== undefined && created.size === 0) {
    throw firstError instanceof Error ? firstError : new Error(errorMessage(firstError));
  }
  if (firstError !== undefined) {
    ctx.logger.warn({ err: firstError, created: created.size, planned: pods.length }, 'Some pods could not be created; retrying later');
    ctx.requeue.push(1000);
  }
  return [...created.values()];
}

/** The new pod's readiness-gate conditions; a failure is not a failed creation (the next reconcile sets them, initializeReadinessGates). */
async function initializeCreatedPod(ctx: SyncContext, pod: DeepReadonly<Pod>): Promise<DeepReadonly<Pod>> {
  try {
    return await initializePodReadinessGates(ctx, pod);
  } catch (error) {
    ctx.logger.warn({ err: error, pod: pod.metadata?.name }, 'Could not set the readiness-gate conditions of a new pod yet');
    return pod;
  }
}

/** Checks off the create expectations of pods that were never created, so the next sync is not blocked. */
function forgetUncreated(ctx: SyncContext, key: string, uncreated: readonly Pod[]): void {
  for (const pod of uncreated) {
    ctx.scaleExpectations.observe(key, 'create', pod.metadata?.name ?? '');
  }
}

/** The claims of the pod's instance that do not exist yet. */
function missingClaims(state: SyncState, pod: Pod): PersistentVolumeClaim[] {
  const existing = new Set(state.pvcs.map((pvc) => pvc.metadata?.name));
  return newClaimsForInstance({
    owner: { name: state.cs.metadata.name ?? '', namespace: state.cs.metadata.namespace ?? '', controllerRef: state.controllerRef },
    volumeClaimTemplates: state.cs.spec.volumeClaimTemplates ?? [],
    instanceId: pod.metadata?.labels?.[CLONESET_INSTANCE_ID_LABEL] ?? '',
    selectorLabels: state.cs.spec.selector.matchLabels ?? {},
  }).filter((claim) => !existing.has(claim.metadata?.name));
}

async function createOnePod(ctx: SyncContext, state: SyncState, pod: Pod): Promise<DeepReadonly<Pod>> {
  const claims = missingClaims(state, pod);
  for (const claim of claims) {
    await createClaim(ctx, state, claim);
  }
  let created: Pod;
  try {
    created = await ctx.client.create(podResource, pod);
  } catch (error) {
    ctx.recorder.warning(state.ref, CloneSetEventReason.FailedCreate, `failed to create pod: ${errorMessage(error)}, pod: ${JSON.stringify(pod)}`);
    throw error;
  }
  ctx.recorder.normal(state.ref, CloneSetEventReason.SuccessfulCreate, `succeed to create pod ${pod.metadata?.name ?? ''}`);
  return created;
}

async function createClaim(ctx: SyncContext, state: SyncState, claim: PersistentVolumeClaim): Promise<void> {
  const name = claim.metadata?.name ?? '';
  ctx.scaleExpectations.expect(state.key, 'create', name);
  try {
    await ctx.client.create(pvcResource, claim);
  } catch (error) {
    ctx.scaleExpectations.observe(state.key, 'create', name);
    // A claim left by a deleted pod of the same instance is exactly what reuse wants.
    if (isAlreadyExists(error)) {
      return;
    }
    ctx.recorder.warning(state.ref, CloneSetEventReason.FailedCreate, `failed to create pvc: ${errorMessage(error)}, pvc: ${JSON.stringify(claim)}`);
    throw error;
  }
}

/** The message of an error, for events and logs. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
