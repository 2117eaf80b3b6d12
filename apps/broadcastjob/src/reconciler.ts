/**
 * The BroadcastJob reconcile (§C.4): a finished job waits for its TTL and is deleted with its pods;
 * a running one counts its pods, plans its nodes, decides (paused, failed, running), deletes the pods
 * the plan or the decision says, creates pods on the nodes still without one within `parallelism`
 * (through pod-control: slow-start batches, bounded concurrency, a create expectation per node, so
 * that no node ever gets a second pod while the cache lags) once a dry run says the API server
 * accepts the template, and writes the status. A failed creation or deletion is reported in the
 * status (FailedCreatePod / FailedDeletePod naming the API server's answer) and Events, and then
 * thrown, so that the work queue retries the job with its exponential backoff, as CloneSet's
 * FailedScale: a job whose creations a quota or a webhook refuses resumes once they are accepted,
 * without waiting for an unrelated event.
 */
import { BroadcastJobPhase, scaledValueFromIntOrPercent } from '@kruise-ts/api';
import type { BroadcastJob, BroadcastJobStatus, Node, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { isNotFound, objectKey, objectReference, requestKey, resourceClient } from '@kruise-ts/controller-runtime';
import type {
  DeepReadonly,
  EventReporter,
  Lister,
  ObjectApi,
  ReconcileContext,
  Reconciler,
  Request,
  Result,
} from '@kruise-ts/controller-runtime';
import { CreatePodsError } from '@kruise-ts/pod-control';
import type { TemplateValidator } from '@kruise-ts/template-validation';
import {
  asError,
  errorMessage,
  expectedWritesWait,
  metaTime,
  podResource,
  pvcResource,
  reconcileWorkload,
  warnOnce,
} from '@kruise-ts/workload';
import type {
  ParsedObject,
  ReportedProblem,
  ResourceVersionExpectations,
  ScaleExpectations,
  SyncOutcome,
  WaitingForCache,
  WorkloadClients,
  WorkloadCondition,
  WorkloadReconcileSteps,
} from '@kruise-ts/workload';

import { broadcastJobResource, parseBroadcastJob } from './broadcastjob-resource.ts';
import { decideJob, isJobFinished, untilTtlDeadline } from './job/job-decision.ts';
import type { JobDecision, JobEvent } from './job/job-decision.ts';
import type { PodBinding } from './job/job-pod.ts';
import { isPodRunning, jobPodState } from './job/job-pods.ts';
import { JobPlans } from './job/job-plans.ts';
import type { JobPodCounts } from './job/job-pods.ts';
import { NodeFitCache } from './job/node-fit-cache.ts';
import type { FitnessOf } from './job/node-fit-cache.ts';
import type { NodePlan } from './job/node-plan.ts';
import type { PlanFeed } from './job/plan-feed.ts';
import {
  CREATE_ERROR,
  DELETE_ERROR,
  FAILED_CREATE_POD,
  INVALID_TEMPLATE,
  nextJobStatus,
  problemConditions,
} from './job/job-status.ts';
import type { StatusUpdate, WriteProblem } from './job/job-status.ts';
import { createJobPods, deleteJobPods } from './job/pod-writes.ts';
import type { PodWriteContext } from './job/pod-writes.ts';
import { noEligibleNodeMessage } from './job/unfit-message.ts';
import { templateProblem } from './validation/template-check.ts';

type ReadonlyJob = DeepReadonly<BroadcastJob>;
type ReadonlyPod = DeepReadonly<Pod>;

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
  readonly scaleExpectations: ScaleExpectations;
  /** The pods' status writes of pod-control (readiness gates a template declares). */
  readonly resourceVersionExpectations: ResourceVersionExpectations;
  /** A template pod's fit as a function of the node (the checks of checkNodeFitness, requests parsed once). */
  readonly fitnessOf: FitnessOf;
  readonly nodeOf: (pod: ReadonlyPod) => string | undefined;
  readonly binding: PodBinding;
  /** Dry-runs the template before pods are made from it (the process's shared validator). */
  readonly templateValidator: Pick<TemplateValidator, 'validate'>;
  /**
   * The pod and node changes the controller's events record, so that a reconcile re-plans only what
   * changed; without it every reconcile plans every node from the cache.
   */
  readonly planFeed?: PlanFeed | undefined;
}

/** What a write step did: how many pods it wrote, why it wrote none or too few, and the failure to retry. */
interface WriteOutcome {
  readonly written: number;
  readonly problem?: WriteProblem | undefined;
  readonly failure?: Error | undefined;
}

const NOTHING: WriteOutcome = { written: 0 };

/** One reconcile's view of a running job. */
interface Round {
  readonly context: ReconcileContext;
  readonly writes: PodWriteContext;
  readonly job: ReadonlyJob;
  readonly key: string;
  readonly now: number;
  readonly startTime: string;
  /** The job's pods (listed only by the rounds that stop them all). */
  readonly pods: () => readonly ReadonlyPod[];
  readonly plan: NodePlan;
  readonly counts: JobPodCounts;
  /** Every desired node has a pod that is no longer active (isJobComplete). */
  readonly complete: boolean;
  readonly nodeCount: number;
}

/** A status update of a round: the phase, the counts, and what the write steps report. */
type RoundStatus = Pick<StatusUpdate, 'phase' | 'finish'> & {
  readonly counts: JobPodCounts;
  readonly created?: WriteOutcome;
  readonly deleted?: WriteOutcome;
};

type BroadcastJobOutcome = SyncOutcome<BroadcastJobStatus>;

/**
 * Reconciles one job through the workload skeleton (`reconcileWorkload`: read, report an unreadable
 * spec, wait for the creations and deletions expected, sync, write the status); the rounds are its own.
 */
export class BroadcastJobReconciler implements Reconciler, WorkloadReconcileSteps<BroadcastJob, BroadcastJobStatus> {
  readonly #deps: BroadcastJobReconcilerDeps;
  /** The last NoEligibleNode message reported per job, so that the Warning is sent once per change. */
  readonly #reportedUnfit = new Map<string, string>();
  readonly #fits: NodeFitCache;
  readonly #plans: JobPlans;
  /** The node of each cached pod object (cached objects never change: a new version is a new object). */
  readonly #podNodes = new WeakMap<ReadonlyPod, string | undefined>();
  readonly #nodeOf = (pod: ReadonlyPod): string | undefined => {
    if (this.#podNodes.has(pod)) {
      return this.#podNodes.get(pod);
    }
    const node = this.#deps.nodeOf(pod);
    this.#podNodes.set(pod, node);
    return node;
  };

  readonly clients: WorkloadClients<BroadcastJob>;
  // A new job has no status yet, and the schema requires its counts: no pods counted, so zeros.
  readonly zeroCounts = { active: 0, succeeded: 0, failed: 0, desired: 0 };
  readonly observesGeneration = false;

  constructor(deps: BroadcastJobReconcilerDeps) {
    this.#deps = deps;
    this.clients = { ...deps, resource: broadcastJobResource };
    this.#fits = new NodeFitCache(deps.fitnessOf);
    this.#plans = new JobPlans({ pods: deps.pods, nodes: deps.nodes, nodeOf: this.#nodeOf, feed: deps.planFeed });
  }

  /** The plan views kept between rounds (for tests). */
  get jobPlans(): JobPlans {
    return this.#plans;
  }

  /** The template fits the reconciler keeps between rounds (for tests). */
  get nodeFits(): NodeFitCache {
    return this.#fits;
  }

  reconcile(context: ReconcileContext, request: Request): Promise<Result | undefined> {
    return reconcileWorkload(this, context, request);
  }

  get(request: Request): ReadonlyJob | undefined {
    return this.#deps.jobs.get(request.namespace, request.name);
  }

  readonly parse: (cached: ReadonlyJob) => ParsedObject<BroadcastJob> = parseBroadcastJob;

  /** A job this version cannot read is reported as a template the API server refuses (CloneSet's way). */
  unreadable(message: string): ReportedProblem {
    return { type: FAILED_CREATE_POD, reason: INVALID_TEMPLATE, message, eventReason: 'FailedCreate' };
  }

  /** The job's conditions carry lastProbeTime. */
  setProblemCondition(
    conditions: readonly WorkloadCondition[],
    problem: ReportedProblem,
    now: number,
  ): WorkloadCondition[] {
    return problemConditions(conditions, { type: FAILED_CREATE_POD, problem, now });
  }

  /** No round while creations or deletions of the last one are not in the cache: a node would get a second pod. */
  waitForCache(_context: ReconcileContext, job: ReadonlyJob): WaitingForCache | undefined {
    return expectedWritesWait(this.#deps.scaleExpectations, objectKey(job));
  }

  async sync(context: ReconcileContext, job: ReadonlyJob): Promise<BroadcastJobOutcome> {
    const now = this.#deps.clock.now();
    if (isJobFinished(job)) {
      const key = objectKey(job);
      this.#fits.forget(key);
      this.#plans.forget(key);
      return { kind: 'synced', result: await this.#finished(context, job, now) };
    }
    return this.#run(this.#round(context, job, now));
  }

  /**
   * Frees what is kept between rounds (fits, plan views, reported unfitness) for the jobs `matches`
   * selects: jobs deleted, or no longer this replica's to reconcile (a bucket it let go), whatever
   * reconciles this replica still runs; a job it reconciles again is planned from the cache afresh.
   */
  forgetJobs(matches: (key: string) => boolean): void {
    const keys = new Set([...this.#fits.jobKeys(), ...this.#plans.jobKeys(), ...this.#reportedUnfit.keys()]);
    for (const key of keys) {
      if (matches(key)) {
        this.#reportedUnfit.delete(key);
        this.#fits.forget(key);
        this.#plans.forget(key);
      }
    }
  }

  /** A deleted job: what was kept for it goes too. */
  forget(key: string): void {
    this.#deps.scaleExpectations.delete(key);
    this.#reportedUnfit.delete(key);
    this.#fits.forget(key);
    this.#plans.forget(key);
  }

  /** A finished job: deleted (with its pods, by the garbage collector) once its TTL passed. */
  async #finished(context: ReconcileContext, job: ReadonlyJob, now: number): Promise<Result | undefined> {
    const left = untilTtlDeadline(job, now);
    if (left === undefined) {
      return undefined;
    }
    if (left > 0) {
      return { requeueAfterMs: left };
    }
    context.logger.info('Deleting the finished BroadcastJob: ttlSecondsAfterFinished passed');
    await resourceClient(this.#deps.api, broadcastJobResource, context.signal)
      .delete(
        { namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '' },
        { propagationPolicy: 'Background', preconditions: { uid: job.metadata.uid ?? '' } },
      )
      .catch((error: unknown) => {
        if (!isNotFound(error)) {
          throw error;
        }
      });
    return undefined;
  }

  #round(context: ReconcileContext, job: ReadonlyJob, now: number): Round {
    const view = this.#plans.viewOf(job, this.#fits.fitOf(job));
    this.#fits.retainNodes(job, { count: view.nodeCount, has: (name) => view.hasNode(name) });
    const key = requestKey({ namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '' });
    const round = {
      context,
      writes: this.#writeContext(context),
      job,
      key,
      now,
      startTime: job.status?.startTime ?? metaTime(now),
    };
    return {
      ...round,
      pods: () => view.pods(),
      plan: view.plan(),
      counts: view.counts(),
      complete: view.complete(job),
      nodeCount: view.nodeCount,
    };
  }

  /** pod-control's capabilities for this reconcile: every client carries its abort signal. */
  #writeContext(context: ReconcileContext): PodWriteContext {
    const deps = this.#deps;
    return {
      signal: context.signal,
      pods: resourceClient<Pod>(deps.api, podResource, context.signal),
      claims: resourceClient<PersistentVolumeClaim>(deps.api, pvcResource, context.signal),
      recorder: deps.recorder,
      clock: deps.clock,
      logger: context.logger,
      scaleExpectations: deps.scaleExpectations,
      resourceVersionExpectations: deps.resourceVersionExpectations,
      nodeOf: deps.nodeOf,
      binding: deps.binding,
    };
  }

  async #run(round: Round): Promise<BroadcastJobOutcome> {
    const { job } = round;
    this.#reportPlan(round);
    const { counts } = round;
    const decision = decideJob({ job, counts, startTime: Date.parse(round.startTime), now: round.now });
    this.#event(job, decisionEvent(decision));
    switch (decision.kind) {
      case 'stay-failed':
        return this.#synced(round, { counts, phase: BroadcastJobPhase.Failed });
      case 'pause':
        return this.#synced(round, { counts, phase: BroadcastJobPhase.Paused }, this.#deadlineRequeue(round));
      case 'fail':
        return this.#fail(round, counts, decision);
      case 'run':
        return this.#progress(round, counts);
    }
  }

  /** The job failed: its running pods are deleted (each counts as failed), the Failed condition set. */
  async #fail(
    round: Round,
    counts: JobPodCounts,
    decision: Extract<JobDecision, { kind: 'fail' }>,
  ): Promise<BroadcastJobOutcome> {
    const running = round.pods().filter(isPodRunning);
    const deleted = await this.#deletePods(round, running);
    // Not finished while its pods run: the next round decides again and deletes them.
    if (deleted.failure !== undefined) {
      return this.#failedRound(round, { counts, phase: BroadcastJobPhase.Running, deleted });
    }
    // Each deleted pod that counted as active now counts as failed (one over its restart limit already did).
    const stopped = running.filter((pod) => jobPodState(round.job, pod) === 'active').length;
    const after = { ...counts, active: Math.max(0, counts.active - stopped), failed: counts.failed + stopped };
    this.#event(round.job, {
      type: 'Warning',
      reason: decision.reason,
      message: `${decision.message}: ${String(after.succeeded)} pods succeeded, ${String(after.failed)} pods failed`,
    });
    const status: RoundStatus = {
      counts: after,
      phase: BroadcastJobPhase.Failed,
      finish: { type: 'Failed', message: decision.message },
    };
    return this.#synced(round, status, this.#ttlRequeue(round.job));
  }

  /** A running job: unfit and duplicate pods go, nodes without a pod get one, and the job may complete. */
  async #progress(round: Round, counts: JobPodCounts): Promise<BroadcastJobOutcome> {
    const { job, plan } = round;
    const deleted = await this.#deletePods(
      round,
      plan.podsToDelete.map((entry) => entry.pod),
    );
    const created =
      job.metadata.deletionTimestamp === undefined
        ? await this.#createPods(round, counts.active - deleted.written)
        : NOTHING;
    const running = { ...counts, active: counts.active - deleted.written + created.written };
    if (created.failure !== undefined || deleted.failure !== undefined) {
      return this.#failedRound(round, { counts: running, phase: BroadcastJobPhase.Running, created, deleted });
    }
    if (!round.complete) {
      const status = { counts: running, phase: BroadcastJobPhase.Running, created };
      return this.#synced(round, status, this.#deadlineRequeue(round));
    }
    // OnFailure pods over their restart limit count as failed but still run: the finished job stops them.
    const stopped = await this.#deletePods(round, round.pods().filter(isPodRunning));
    if (stopped.failure !== undefined) {
      return this.#failedRound(round, { counts: running, phase: BroadcastJobPhase.Running, deleted: stopped });
    }
    const message = `Job completed, ${String(counts.succeeded)} pods succeeded, ${String(counts.failed)} pods failed`;
    this.#event(job, {
      type: 'Normal',
      reason: 'JobComplete',
      message: `Job ${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''} is completed, ${String(counts.succeeded)} pods succeeded, ${String(counts.failed)} pods failed`,
    });
    const status: RoundStatus = {
      counts: { ...counts, active: 0 },
      phase: BroadcastJobPhase.Completed,
      finish: { type: 'Complete', message },
    };
    return this.#synced(round, status, this.#ttlRequeue(job));
  }

  /** A round whose writes failed: the status says why, then the failure goes to the queue's backoff. */
  #failedRound(round: Round, status: RoundStatus): BroadcastJobOutcome {
    const failure = status.created?.failure ?? status.deleted?.failure ?? new Error('pod writes failed');
    return { kind: 'synced', status: this.#status(round, status), failure };
  }

  /** A round that went through: its status, and when to look again. */
  #synced(round: Round, update: RoundStatus, result?: Result): BroadcastJobOutcome {
    return { kind: 'synced', status: this.#status(round, update), result };
  }

  /** Creates pods on the nodes without one, within parallelism, once the API server would accept them. */
  async #createPods(round: Round, active: number): Promise<WriteOutcome> {
    const { job, plan } = round;
    const parallelism = scaledValueFromIntOrPercent({
      value: job.spec.parallelism,
      total: plan.desired.size,
      roundUp: true,
    });
    if (active > parallelism) {
      this.#event(job, {
        type: 'Warning',
        reason: 'TooManyActivePods',
        message: 'Number of active pods exceed parallelism limit',
      });
      return NOTHING;
    }
    const nodes = plan.restNodes.slice(0, Math.max(0, parallelism - active));
    if (nodes.length === 0) {
      return NOTHING;
    }
    const invalidTemplate = await this.#checkTemplate(round);
    if (invalidTemplate !== undefined) {
      return { written: 0, problem: { reason: INVALID_TEMPLATE, message: invalidTemplate } };
    }
    try {
      return { written: await createJobPods(round.writes, job, nodes) };
    } catch (error) {
      round.context.logger.warn({ err: error, nodes: nodes.length }, 'Creating pods failed; retrying with backoff');
      const created = error instanceof CreatePodsError ? error.created.length : 0;
      return {
        written: created,
        problem: { reason: CREATE_ERROR, message: errorMessage(error) },
        failure: asError(error),
      };
    }
  }

  /**
   * A template the API server refuses (when the webhook was skipped): a Warning FailedCreate, once
   * per change of the problem, instead of one refused create per node; its message for the condition.
   */
  async #checkTemplate(round: Round): Promise<string | undefined> {
    const { job, context } = round;
    const shape = { assignPodsByScheduler: this.#deps.binding.byScheduler };
    const problem = await templateProblem(job, {
      validator: this.#deps.templateValidator,
      shape,
      signal: context.signal,
      logger: context.logger,
    });
    if (problem !== undefined) {
      const reported = {
        type: FAILED_CREATE_POD,
        reason: INVALID_TEMPLATE,
        message: problem,
        eventReason: 'FailedCreate',
      };
      warnOnce(this.#deps.recorder, {
        ref: objectReference(broadcastJobResource, job),
        conditions: job.status?.conditions,
        problem: reported,
      });
    }
    return problem;
  }

  /** Deletes pods; on a failure none is counted as deleted (the next round counts them again). */
  async #deletePods(round: Round, doomed: readonly ReadonlyPod[]): Promise<WriteOutcome> {
    try {
      await deleteJobPods(round.writes, round.job, doomed);
      return { written: doomed.length };
    } catch (error) {
      round.context.logger.warn({ err: error, pods: doomed.length }, 'Deleting pods failed; retrying with backoff');
      return { written: 0, problem: { reason: DELETE_ERROR, message: errorMessage(error) }, failure: asError(error) };
    }
  }

  #status(round: Round, update: RoundStatus): BroadcastJobStatus {
    const noEligibleNode =
      round.nodeCount > 0 && round.plan.desired.size === 0
        ? noEligibleNodeMessage(round.plan.unfitReasons, round.nodeCount)
        : undefined;
    return nextJobStatus(round.job, {
      phase: update.phase,
      ...(update.finish === undefined ? {} : { finish: update.finish }),
      counts: { ...update.counts, desired: round.plan.desired.size },
      startTime: round.startTime,
      ...(noEligibleNode === undefined ? {} : { noEligibleNode }),
      createProblem: update.created?.problem,
      deleteProblem: update.deleted?.problem,
      now: round.now,
    });
  }

  /** Duplicate pods and a template that fits no node, each reported once. */
  #reportPlan(round: Round): void {
    for (const node of round.plan.duplicateNodes) {
      this.#event(round.job, {
        type: 'Warning',
        reason: 'DuplicatePodCreatedOnSameNode',
        message: `more than one pod of the job on node ${node}; the newer ones are deleted`,
      });
    }
    const message =
      round.nodeCount > 0 && round.plan.desired.size === 0
        ? noEligibleNodeMessage(round.plan.unfitReasons, round.nodeCount)
        : '';
    if (this.#reportedUnfit.get(round.key) === message) {
      return;
    }
    this.#reportedUnfit.set(round.key, message);
    if (message !== '') {
      this.#event(round.job, { type: 'Warning', reason: 'NoEligibleNode', message });
    }
  }

  #event(job: ReadonlyJob, event: JobEvent | undefined): void {
    if (event === undefined) {
      return;
    }
    const reference = objectReference(broadcastJobResource, job);
    if (event.type === 'Normal') {
      this.#deps.recorder.normal(reference, event.reason, event.message);
    } else {
      this.#deps.recorder.warning(reference, event.reason, event.message);
    }
  }

  /** A running Always job with a deadline is looked at again when it passes. */
  #deadlineRequeue(round: Round): Result | undefined {
    const deadline = round.job.spec.completionPolicy.activeDeadlineSeconds;
    if (round.job.spec.completionPolicy.type === 'Never' || deadline === undefined) {
      return undefined;
    }
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
