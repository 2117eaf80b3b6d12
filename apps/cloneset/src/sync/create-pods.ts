import { CLONESET_INSTANCE_ID_LABEL, CloneSetEventReason } from '@kruise-ts/api';
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { isAlreadyExists } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { newClaimsForInstance } from '@kruise-ts/pvc-instance';
import { errorMessage, POD_WRITE_CONCURRENCY, slowStartBatch, stableMessage } from '@kruise-ts/workload';

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
  const now = new Date(ctx.clock.now());
  return request.instanceIds.slice(0, request.expectedCreations).map((instanceId, index) => {
    const current = index < currentCount;
    return newPod({
      cs: state.cs,
      controllerRef: state.controllerRef,
      template: current ? state.currentTemplate : state.updateTemplate,
      revisionName: revisionNameOf(current ? state.currentRevision : state.updateRevision),
      instanceId,
      shortHash: ctx.gates.enabled('CloneSetShortHash'),
      reCreateWithoutReadinessGates: ctx.options.reCreateWithoutReadinessGates,
      now,
    });
  });
}

/**
 * Pods created at once at most. 256 at once made the API server's p99 for creations 1.55 s when
 * scaling out to 5,000 pods; 64 keeps it at 452 ms for the same rollout time (docs/benchmarks.md).
 */
const MAX_CREATE_BATCH = POD_WRITE_CONCURRENCY;

/** A creation that failed: what the FailedScale condition says, the same for every attempt with the same cause. */
export class CreatePodsError extends Error {
  /** The pods that were created before the failure, as the API server returned them. */
  readonly created: readonly DeepReadonly<Pod>[];

  constructor(message: string, options: { cause: unknown; created: readonly DeepReadonly<Pod>[] }) {
    super(message, { cause: options.cause });
    this.name = 'CreatePodsError';
    this.created = options.created;
  }
}

/**
 * Creates the pods in slow-start batches (1, 2, 4, …, or from where the CloneSet's last creations
 * that all went through got to: SlowStartMemory; a failing batch stops the rest), each after its
 * missing PVCs, recording scale expectations first and rolling back those of pods never created.
 * Each created pod's readiness-gate status write starts right after its creation, outside the
 * batches: slow start is about failing creations, and waiting for the status write as well made
 * every batch step two requests long. Returns the pods created, as the API server returned them
 * (after that write when it went through). When any creation failed it throws a CreatePodsError
 * after that bookkeeping, so that the reconcile reports it and retries with the queue's backoff.
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
  if (firstError !== undefined) {
    throw creationFailure(state, { error: firstError, failed: pods.length - created.size, created: [...created.values()] });
  }
  return [...created.values()];
}

function creationFailure(state: SyncState, input: { error: unknown; failed: number; created: readonly DeepReadonly<Pod>[] }): CreatePodsError {
  const { error } = input;
  const name = error instanceof PodCreateError ? error.podName : '';
  const cause = error instanceof PodCreateError ? error.cause : error;
  const detail = stableMessage(errorMessage(cause), { name, prefix: `${state.cs.metadata.name ?? ''}-` });
  return new CreatePodsError(`failed to create ${String(input.failed)} of ${String(input.failed + input.created.length)} pods: ${detail}`, { cause, created: input.created });
}

/** A failed creation of one pod (or of its PVCs), naming the pod. */
class PodCreateError extends Error {
  readonly podName: string;

  constructor(podName: string, cause: unknown) {
    super(`pod ${podName}: ${errorMessage(cause)}`, { cause });
    this.name = 'PodCreateError';
    this.podName = podName;
  }
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
  const podName = pod.metadata?.name ?? '';
  for (const claim of missingClaims(state, pod)) {
    await createClaim(ctx, state, { claim, podName });
  }
  let created: Pod;
  try {
    created = await ctx.pods.create(pod);
  } catch (error) {
    // A cancelled reconcile (shutdown, timeout) failed nothing worth an Event.
    if (!ctx.signal.aborted) {
      ctx.recorder.warning(state.ref, CloneSetEventReason.FailedCreate, `failed to create pod: ${errorMessage(error)}, pod: ${JSON.stringify(pod)}`);
    }
    throw new PodCreateError(podName, error);
  }
  ctx.recorder.normal(state.ref, CloneSetEventReason.SuccessfulCreate, `succeed to create pod ${podName}`);
  return created;
}

async function createClaim(ctx: SyncContext, state: SyncState, input: { claim: PersistentVolumeClaim; podName: string }): Promise<void> {
  const { claim } = input;
  const name = claim.metadata?.name ?? '';
  ctx.scaleExpectations.expect(state.key, 'create', name);
  try {
    await ctx.claims.create(claim);
  } catch (error) {
    ctx.scaleExpectations.observe(state.key, 'create', name);
    // A claim left by a deleted pod of the same instance is exactly what reuse wants.
    if (isAlreadyExists(error)) {
      return;
    }
    if (!ctx.signal.aborted) {
      ctx.recorder.warning(state.ref, CloneSetEventReason.FailedCreate, `failed to create pvc: ${errorMessage(error)}, pvc: ${JSON.stringify(claim)}`);
    }
    throw new PodCreateError(input.podName, error);
  }
}
