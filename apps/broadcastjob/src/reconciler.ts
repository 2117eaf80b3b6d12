/**
 * The BroadcastJob reconcile (§C.4): a finished job waits for its TTL and is deleted with its pods;
 * a running one counts its pods, plans its nodes, decides (paused, failed, running), deletes the pods
 * the plan or the decision says, creates pods on the nodes still without one within `parallelism`
 * (slow-start batches, a create expectation per node, so that no node ever gets a second pod while
 * the cache lags) once a dry run says the API server accepts the template, and writes the status.
 */
import { BROADCASTJOB_CONTROLLER_UID_LABEL, BroadcastJobPhase, scaledValueFromIntOrPercent } from '@kruise-ts/api';
import type { BroadcastJob, Node, Pod } from '@kruise-ts/api';
import { controllerRef, isNotFound, objectReference, requestKey, resourceClient } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, EventReporter, Lister, ObjectApi, ReconcileContext, Reconciler, Request, Result, ScaleExpectations } from '@kruise-ts/controller-runtime';
import type { TemplateValidator } from '@kruise-ts/template-validation';
import { errorMessage, metaTime, podResource, slowStartBatch, updateStatus, warnOnce } from '@kruise-ts/workload';

import { broadcastJobResource, parseBroadcastJob } from './broadcastjob-resource.ts';
import { decideJob, isJobComplete, isJobFinished, untilTtlDeadline } from './job/job-decision.ts';
import type { JobDecision, JobEvent } from './job/job-decision.ts';
import { mockJobPod, newJobPod } from './job/job-pod.ts';
import type { PodBinding } from './job/job-pod.ts';
import { countJobPods, isPodRunning, jobPodState } from './job/job-pods.ts';
import type { JobPodCounts } from './job/job-pods.ts';
import { planNodes } from './job/node-plan.ts';
import type { FitResult, NodePlan } from './job/node-plan.ts';
import { FAILED_CREATE_POD, INVALID_TEMPLATE, nextJobStatus } from './job/job-status.ts';
import type { StatusUpdate } from './job/job-status.ts';
import { noEligibleNodeMessage } from './job/unfit-message.ts';
import { templateProblem } from './validation/template-check.ts';

type ReadonlyJob = DeepReadonly<BroadcastJob>;
type ReadonlyPod = DeepReadonly<Pod>;

/** Largest batch of pod creates in flight (the ReplicaSet controller's cap). */
const MAX_CREATE_BATCH = 500;

/** What the reconciler reads and writes with. */
export interface BroadcastJobReconcilerDeps {
  /** The manager's client (a FakeClient in unit tests). */
  readonly api: ObjectApi;
  readonly recorder: EventReporter;
  readonly clock: { now(): number };
  readonly jobs: Lister<BroadcastJob>;
  readonly pods: Lister<Pod>;
  readonly nodes: Lister<Node>;
  /** Create and delete expectations, keyed by node name. */
  readonly expectations: ScaleExpectations;
  readonly fits: (pod: ReadonlyPod, node: DeepReadonly<Node>) => FitResult;
  readonly nodeOf: (pod: ReadonlyPod) => string | undefined;
  readonly binding: PodBinding;
  /** Dry-runs the template before pods are made from it (the process's shared validator). */
  readonly templateValidator: Pick<TemplateValidator, 'validate'>;
}

/** What the create step did: the pods it created, or why it created none (a template the API server refuses). */
interface CreateOutcome {
  readonly created: number;
  readonly invalidTemplate?: string | undefined;
}

/** One reconcile's view of a running job. */
interface Round {
  readonly context: ReconcileContext;
  readonly job: ReadonlyJob;
  readonly key: string;
  readonly now: number;
  readonly startTime: string;
  readonly pods: readonly ReadonlyPod[];
  readonly plan: NodePlan;
  readonly nodeCount: number;
}

export class BroadcastJobReconciler implements Reconciler {
  readonly #deps: BroadcastJobReconcilerDeps;
  /** The last NoEligibleNode message reported per job, so that the Warning is sent once per change. */
  readonly #reportedUnfit = new Map<string, string>();

  constructor(deps: BroadcastJobReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(context: ReconcileContext, request: Request): Promise<Result | undefined> {
    const key = requestKey(request);
    const cached = this.#deps.jobs.get(request.namespace, request.name);
    if (cached === undefined) {
      this.#deps.expectations.delete(key);
      this.#reportedUnfit.delete(key);
      return undefined;
    }
    const parsed = parseBroadcastJob(cached);
    if (parsed.kind === 'invalid') {
      context.logger.error({ message: parsed.message }, 'BroadcastJob cannot be read');
      return undefined;
    }
    const satisfied = this.#deps.expectations.satisfied(key);
    if (!satisfied.satisfied) return { requeueAfterMs: satisfied.remainingMs };
    const job = parsed.object;
    const now = this.#deps.clock.now();
    if (isJobFinished(job)) return this.#finished(context, job, now);
    return this.#run(this.#round(context, job, now));
  }

  /** A finished job: deleted (with its pods, by the garbage collector) once its TTL passed. */
  async #finished(context: ReconcileContext, job: ReadonlyJob, now: number): Promise<Result | undefined> {
    const left = untilTtlDeadline(job, now);
    if (left === undefined) return undefined;
    if (left > 0) return { requeueAfterMs: left };
    context.logger.info('Deleting the finished BroadcastJob: ttlSecondsAfterFinished passed');
    await resourceClient(this.#deps.api, broadcastJobResource, context.signal)
      .delete({ namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '' }, { propagationPolicy: 'Background', preconditions: { uid: job.metadata.uid ?? '' } })
      .catch((error: unknown) => {
        if (!isNotFound(error)) throw error;
      });
    return undefined;
  }

  #round(context: ReconcileContext, job: ReadonlyJob, now: number): Round {
    const uid = job.metadata.uid ?? '';
    const pods = this.#deps.pods
      .list({ namespace: job.metadata.namespace ?? '', labelSelector: { matchLabels: { [BROADCASTJOB_CONTROLLER_UID_LABEL]: uid } } })
      .filter((pod) => controllerRef(pod)?.uid === uid);
    const nodes = this.#deps.nodes.list();
    const plan = planNodes({ pods, nodes, fits: this.#deps.fits, nodeOf: this.#deps.nodeOf, mockPod: (node) => mockJobPod(job, node) });
    return { context, job, key: requestKey({ namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '' }), now, startTime: job.status?.startTime ?? metaTime(now), pods, plan, nodeCount: nodes.length };
  }

  async #run(round: Round): Promise<Result | undefined> {
    const { job } = round;
    this.#reportPlan(round);
    const counts = countJobPods(job, round.pods);
    const decision = decideJob({ job, counts, startTime: Date.parse(round.startTime), now: round.now });
    this.#event(job, decisionEvent(decision));
    switch (decision.kind) {
      case 'stay-failed':
        await this.#writeStatus(round, { counts, phase: BroadcastJobPhase.Failed });
        return undefined;
      case 'pause':
        await this.#writeStatus(round, { counts, phase: BroadcastJobPhase.Paused });
        return this.#deadlineRequeue(round);
      case 'fail':
        return this.#fail(round, counts, decision);
      case 'run':
        return this.#progress(round, counts);
    }
  }

  /** The job failed: its running pods are deleted (each counts as failed), the Failed condition set. */
  async #fail(round: Round, counts: JobPodCounts, decision: Extract<JobDecision, { kind: 'fail' }>): Promise<Result | undefined> {
    const running = round.pods.filter(isPodRunning);
    const deleted = await this.#deletePods(round, running);
    // Each deleted pod that counted as active now counts as failed (one over its restart limit already did).
    const stopped = deleted === running.length ? running.filter((pod) => jobPodState(round.job, pod) === 'active').length : Math.min(deleted, counts.active);
    const after = { ...counts, active: Math.max(0, counts.active - stopped), failed: counts.failed + stopped };
    this.#event(round.job, { type: 'Warning', reason: decision.reason, message: `${decision.message}: ${String(after.succeeded)} pods succeeded, ${String(after.failed)} pods failed` });
    await this.#writeStatus(round, { counts: after, phase: BroadcastJobPhase.Failed, finish: { type: 'Failed', message: decision.message } });
    return this.#ttlRequeue(round.job);
  }

  /** A running job: unfit and duplicate pods go, nodes without a pod get one, and the job may complete. */
  async #progress(round: Round, counts: JobPodCounts): Promise<Result | undefined> {
    const { job, plan } = round;
    const deleted = await this.#deletePods(round, plan.podsToDelete.map((entry) => entry.pod));
    const create = job.metadata.deletionTimestamp === undefined ? await this.#createPods(round, counts.active - deleted) : { created: 0 };
    const active = counts.active - deleted + create.created;
    if (!isJobComplete(job, plan.desired)) {
      await this.#writeStatus(round, { counts: { ...counts, active }, phase: BroadcastJobPhase.Running, invalidTemplate: create.invalidTemplate });
      return this.#deadlineRequeue(round);
    }
    // OnFailure pods over their restart limit count as failed but still run: the finished job stops them.
    await this.#deletePods(round, round.pods.filter(isPodRunning));
    const message = `Job completed, ${String(counts.succeeded)} pods succeeded, ${String(counts.failed)} pods failed`;
    this.#event(job, { type: 'Normal', reason: 'JobComplete', message: `Job ${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''} is completed, ${String(counts.succeeded)} pods succeeded, ${String(counts.failed)} pods failed` });
    await this.#writeStatus(round, { counts: { ...counts, active: 0 }, phase: BroadcastJobPhase.Completed, finish: { type: 'Complete', message } });
    return this.#ttlRequeue(job);
  }

  /** Creates pods on the nodes without one, within parallelism, once the API server would accept them. */
  async #createPods(round: Round, active: number): Promise<CreateOutcome> {
    const { job, plan } = round;
    const parallelism = scaledValueFromIntOrPercent({ value: job.spec.parallelism, total: plan.desired.size, roundUp: true });
    if (active > parallelism) {
      this.#event(job, { type: 'Warning', reason: 'TooManyActivePods', message: 'Number of active pods exceed parallelism limit' });
      return { created: 0 };
    }
    const nodes = plan.restNodes.slice(0, Math.max(0, parallelism - active));
    if (nodes.length === 0) return { created: 0 };
    const invalidTemplate = await this.#checkTemplate(round);
    if (invalidTemplate !== undefined) return { created: 0, invalidTemplate };
    return { created: await this.#createOnNodes(round, nodes) };
  }

  /**
   * A template the API server refuses (when the webhook was skipped): a Warning FailedCreate, once
   * per change of the problem, instead of one refused create per node; its message for the condition.
   */
  async #checkTemplate(round: Round): Promise<string | undefined> {
    const { job, context } = round;
    const shape = { assignPodsByScheduler: this.#deps.binding.byScheduler };
    const problem = await templateProblem(job, { validator: this.#deps.templateValidator, shape, signal: context.signal, logger: context.logger });
    if (problem !== undefined) {
      const reported = { type: FAILED_CREATE_POD, reason: INVALID_TEMPLATE, message: problem, eventReason: 'FailedCreate' };
      warnOnce(this.#deps.recorder, { ref: objectReference(broadcastJobResource, job), conditions: job.status?.conditions, problem: reported });
    }
    return problem;
  }

  /** Creates a pod on each node (slow-start batches); returns how many were created. */
  async #createOnNodes(round: Round, nodes: readonly string[]): Promise<number> {
    const { job } = round;
    const pods = resourceClient(this.#deps.api, podResource, round.context.signal);
    const result = await slowStartBatch({
      count: nodes.length,
      initialBatchSize: 1,
      maxBatchSize: MAX_CREATE_BATCH,
      run: async (index) => {
        const node = nodes[index] ?? '';
        this.#deps.expectations.expect(round.key, 'create', node);
        try {
          const created = await pods.create(newJobPod(job, node, this.#deps.binding));
          this.#event(job, { type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: ${created.metadata?.name ?? ''}` });
        } catch (error) {
          this.#deps.expectations.observe(round.key, 'create', node);
          this.#event(job, { type: 'Warning', reason: 'FailedCreate', message: `Error creating: ${errorMessage(error)}` });
          throw error;
        }
      },
    });
    if (result.errors.length > 0) round.context.logger.warn({ failed: result.errors.length, skipped: result.skipped, err: result.errors[0] }, 'Creating pods failed; the next reconcile tries again');
    return result.succeeded;
  }

  /** Deletes pods (a delete expectation per node); returns how many were deleted. */
  async #deletePods(round: Round, doomed: readonly ReadonlyPod[]): Promise<number> {
    const pods = resourceClient(this.#deps.api, podResource, round.context.signal);
    const outcomes = await Promise.allSettled(
      doomed.map(async (pod) => {
        const name = pod.metadata?.name ?? '';
        const node = this.#deps.nodeOf(pod) ?? name;
        this.#deps.expectations.expect(round.key, 'delete', node);
        try {
          await pods.delete({ namespace: round.job.metadata.namespace ?? '', name }, { preconditions: { uid: pod.metadata?.uid ?? '' } });
          this.#event(round.job, { type: 'Normal', reason: 'SuccessfulDelete', message: `Delete pod: ${name}` });
        } catch (error) {
          this.#deps.expectations.observe(round.key, 'delete', node);
          if (!isNotFound(error)) throw error;
        }
      }),
    );
    const failures = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failures.length > 0) round.context.logger.warn({ failed: failures.length, err: failures[0]?.reason as unknown }, 'Deleting pods failed; the next reconcile tries again');
    return outcomes.length - failures.length;
  }

  async #writeStatus(round: Round, update: Pick<StatusUpdate, 'phase' | 'finish' | 'invalidTemplate'> & { readonly counts: JobPodCounts }): Promise<void> {
    const noEligibleNode = round.nodeCount > 0 && round.plan.desired.size === 0 ? noEligibleNodeMessage(round.plan.unfitReasons, round.nodeCount) : undefined;
    const status = nextJobStatus(round.job, {
      ...update,
      counts: { ...update.counts, desired: round.plan.desired.size },
      startTime: round.startTime,
      ...(noEligibleNode === undefined ? {} : { noEligibleNode }),
      now: round.now,
    });
    try {
      await updateStatus(resourceClient(this.#deps.api, broadcastJobResource, round.context.signal), round.job, status);
    } catch (error) {
      // Deleted since the cache saw it: its delete event ends the work.
      if (!isNotFound(error)) throw error;
    }
  }

  /** Duplicate pods and a template that fits no node, each reported once. */
  #reportPlan(round: Round): void {
    for (const node of round.plan.duplicateNodes) {
      this.#event(round.job, { type: 'Warning', reason: 'DuplicatePodCreatedOnSameNode', message: `more than one pod of the job on node ${node}; the newer ones are deleted` });
    }
    const message = round.nodeCount > 0 && round.plan.desired.size === 0 ? noEligibleNodeMessage(round.plan.unfitReasons, round.nodeCount) : '';
    if (this.#reportedUnfit.get(round.key) === message) return;
    this.#reportedUnfit.set(round.key, message);
    if (message !== '') this.#event(round.job, { type: 'Warning', reason: 'NoEligibleNode', message });
  }

  #event(job: ReadonlyJob, event: JobEvent | undefined): void {
    if (event === undefined) return;
    const reference = objectReference(broadcastJobResource, job);
    if (event.type === 'Normal') this.#deps.recorder.normal(reference, event.reason, event.message);
    else this.#deps.recorder.warning(reference, event.reason, event.message);
  }

  /** A running Always job with a deadline is looked at again when it passes. */
  #deadlineRequeue(round: Round): Result | undefined {
    const deadline = round.job.spec.completionPolicy.activeDeadlineSeconds;
    if (round.job.spec.completionPolicy.type === 'Never' || deadline === undefined) return undefined;
    return { requeueAfterMs: Math.max(0, Date.parse(round.startTime) + deadline * 1000 - round.now) };
  }

  /** A finished job with a TTL is looked at again once it passed. */
  #ttlRequeue(job: ReadonlyJob): Result | undefined {
    const ttl = job.spec.completionPolicy.ttlSecondsAfterFinished;
    return ttl === undefined ? undefined : { requeueAfterMs: (ttl + 1) * 1000 };
  }
}

function decisionEvent(decision: JobDecision): JobEvent | undefined {
  return decision.kind === 'pause' || decision.kind === 'run' ? decision.event : undefined;
}
