/**
 * Creating a workload's pods: each after its missing PVCs, in slow-start batches, with scale
 * expectations recorded first and rolled back for pods never created, an Event per pod, and the
 * readiness-gate conditions written right after each creation.
 */
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { isAlreadyExists } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { withBucketLabel } from '@kruise-ts/sharding';
import { errorMessage, POD_WRITE_CONCURRENCY, slowStartBatch, stableMessage } from '@kruise-ts/workload';
import type { SlowStartMemory } from '@kruise-ts/workload';

import type { PodControlContext, PodOwner } from './context.ts';
import { PodEventReason } from './event-reasons.ts';
import { initializePodReadinessGates } from './readiness-gates.ts';

/** What creating needs. */
export type CreateContext = Pick<
  PodControlContext,
  'signal' | 'pods' | 'claims' | 'recorder' | 'clock' | 'logger' | 'scaleExpectations' | 'resourceVersionExpectations'
>;

/** What {@link createPods} creates, and how. */
export interface CreatePodsRequest {
  /** The pods, in the order to create them. */
  readonly pods: readonly Pod[];
  /** The PVCs to create before the pod (those that do not exist yet); AlreadyExists is fine (reuse). */
  readonly claimsFor: (pod: Pod) => readonly PersistentVolumeClaim[];
  /** Where the owner's next slow start begins (CloneSet keeps it across reconciles); 1 when absent. */
  readonly batchSizes?: SlowStartMemory;
  /**
   * The name the owner's scale expectations track a pod under; its name when absent. A pod named by
   * the API server (`generateName`) has no name before it exists: BroadcastJob tracks its node.
   */
  readonly expectationName?: (pod: Pod) => string;
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
export async function createPods(
  ctx: CreateContext,
  owner: PodOwner,
  request: CreatePodsRequest,
): Promise<DeepReadonly<Pod>[]> {
  const { pods } = request;
  const expectationName = request.expectationName ?? podName;
  for (const pod of pods) {
    ctx.scaleExpectations.expect(owner.key, 'create', expectationName(pod));
  }
  // By position: pods named by the API server all have the name '' until they exist.
  const created = new Map<number, DeepReadonly<Pod>>();
  const initializing: Promise<void>[] = [];
  const result = await slowStartBatch({
    count: pods.length,
    initialBatchSize: request.batchSizes?.initialBatchSize(owner.key) ?? 1,
    maxBatchSize: MAX_CREATE_BATCH,
    run: async (index) => {
      const pod = pods[index];
      if (pod === undefined) {
        return;
      }
      const createdPod = await createOnePod(ctx, owner, { pod, claims: request.claimsFor(pod) });
      created.set(index, createdPod);
      initializing.push(
        initializeCreatedPod(ctx, createdPod).then((initialized) => {
          created.set(index, initialized);
        }),
      );
    },
  });
  await Promise.all(initializing);
  request.batchSizes?.record(owner.key, result);
  forgetUncreated(ctx, owner.key, pods.filter((_pod, index) => !created.has(index)).map(expectationName));
  const [firstError] = result.errors;
  if (firstError !== undefined) {
    throw creationFailure(owner, {
      error: firstError,
      failed: pods.length - created.size,
      created: [...created.values()],
    });
  }
  return [...created.values()];
}

function creationFailure(
  owner: PodOwner,
  input: { error: unknown; failed: number; created: readonly DeepReadonly<Pod>[] },
): CreatePodsError {
  const { error } = input;
  const name = error instanceof PodCreateError ? error.podName : '';
  const cause = error instanceof PodCreateError ? error.cause : error;
  const generateName = error instanceof PodCreateError ? error.generateName : '';
  const detail = withoutGeneratedName(
    stableMessage(errorMessage(cause), { name, prefix: `${owner.name}-` }),
    generateName,
  );
  return new CreatePodsError(
    `failed to create ${String(input.failed)} of ${String(input.failed + input.created.length)} pods: ${detail}`,
    { cause, created: input.created },
  );
}

/** The characters of the API server's generated name suffixes (apimachinery's `utilrand.String`). */
const GENERATED_SUFFIX = '[bcdfghjklmnpqrstvwxz2456789]{5}';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The message with `<generateName><5 random characters>` cut to the generateName: the API server
 * names such a pod only after admission, so each refused attempt would name another pod, and a
 * condition naming it would change (and be written) on every retry.
 */
function withoutGeneratedName(message: string, generateName: string): string {
  if (generateName === '') {
    return message;
  }
  return message.replace(new RegExp(`${escapeRegExp(generateName)}${GENERATED_SUFFIX}\\b`, 'g'), generateName);
}

/** A failed creation of one pod (or of its PVCs), naming the pod (or its generateName). */
class PodCreateError extends Error {
  readonly podName: string;
  readonly generateName: string;

  constructor(pod: Pod, cause: unknown) {
    const podName = pod.metadata?.name ?? '';
    super(`pod ${podName === '' ? (pod.metadata?.generateName ?? '') : podName}: ${errorMessage(cause)}`, { cause });
    this.name = 'PodCreateError';
    this.podName = podName;
    this.generateName = podName === '' ? (pod.metadata?.generateName ?? '') : '';
  }
}

/** The new pod's readiness-gate conditions; a failure is not a failed creation (the next reconcile sets them, initializeReadinessGates). */
async function initializeCreatedPod(ctx: CreateContext, pod: DeepReadonly<Pod>): Promise<DeepReadonly<Pod>> {
  try {
    return await initializePodReadinessGates(ctx, pod);
  } catch (error) {
    ctx.logger.warn(
      { err: error, pod: pod.metadata?.name },
      'Could not set the readiness-gate conditions of a new pod yet',
    );
    return pod;
  }
}

function podName(pod: Pod): string {
  return pod.metadata?.name ?? '';
}

/** Checks off the create expectations of pods that were never created, so the next sync is not blocked. */
function forgetUncreated(ctx: CreateContext, key: string, uncreated: readonly string[]): void {
  for (const name of uncreated) {
    ctx.scaleExpectations.observe(key, 'create', name);
  }
}

async function createOnePod(
  ctx: CreateContext,
  owner: PodOwner,
  input: { pod: Pod; claims: readonly PersistentVolumeClaim[] },
): Promise<DeepReadonly<Pod>> {
  const { pod } = input;
  for (const claim of input.claims) {
    await createClaim(ctx, owner, { claim, pod });
  }
  let created: Pod;
  try {
    created = await ctx.pods.create(withBucketLabel(pod, owner.key));
  } catch (error) {
    // A cancelled reconcile (shutdown, timeout) failed nothing worth an Event.
    if (!ctx.signal.aborted) {
      ctx.recorder.warning(
        owner.ref,
        PodEventReason.FailedCreate,
        `failed to create pod: ${errorMessage(error)}, pod: ${JSON.stringify(pod)}`,
      );
    }
    throw new PodCreateError(pod, error);
  }
  // The created pod's name: a pod named by the API server has none before.
  ctx.recorder.normal(
    owner.ref,
    PodEventReason.SuccessfulCreate,
    `succeed to create pod ${created.metadata?.name ?? podName(pod)}`,
  );
  return created;
}

async function createClaim(
  ctx: CreateContext,
  owner: PodOwner,
  input: { claim: PersistentVolumeClaim; pod: Pod },
): Promise<void> {
  const { claim } = input;
  const name = claim.metadata?.name ?? '';
  ctx.scaleExpectations.expect(owner.key, 'create', name);
  try {
    await ctx.claims.create(withBucketLabel(claim, owner.key));
  } catch (error) {
    ctx.scaleExpectations.observe(owner.key, 'create', name);
    // A claim left by a deleted pod of the same identity is exactly what reuse wants.
    if (isAlreadyExists(error)) {
      return;
    }
    if (!ctx.signal.aborted) {
      ctx.recorder.warning(
        owner.ref,
        PodEventReason.FailedCreate,
        `failed to create pvc: ${errorMessage(error)}, pvc: ${JSON.stringify(claim)}`,
      );
    }
    throw new PodCreateError(input.pod, error);
  }
}
