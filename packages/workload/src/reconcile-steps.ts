/**
 * The steps of a workload reconcile, one small interface each, that an app implements for its kind
 * (controller-runtime's `Reconciler` split where every workload controller does the same thing):
 * read the cached workload, report a spec it cannot act on, wait for the cache, sync. The skeleton
 * (`reconcileWorkload`) runs them in this order and writes the status.
 */
import type {
  DeepReadonly,
  EventReporter,
  KubeObject,
  ObjectApi,
  ReconcileContext,
  Request,
  ResourceType,
} from '@kruise-ts/controller-runtime';

import type { ResourceVersionExpectations } from './expectations/resource-version-expectations.ts';
import type { ParsedObject } from './cached-parse.ts';
import type { WorkloadCondition } from './conditions.ts';
import type { ReportedProblem } from './reported-problem.ts';
import type { SyncOutcome, WaitingForCache } from './sync-outcome.ts';

/** What the skeleton reads of any workload: its metadata and its status conditions. */
export interface WorkloadObject extends KubeObject {
  readonly metadata: NonNullable<KubeObject['metadata']>;
  readonly status?: { readonly conditions?: readonly WorkloadCondition[] | undefined } | undefined;
}

/** The kind and the capabilities the skeleton writes the workload's status and Events with. */
export interface WorkloadClients<W extends KubeObject> {
  readonly resource: ResourceType<W>;
  readonly api: ObjectApi;
  readonly recorder: EventReporter;
  readonly clock: { now(): number };
  /** Our writes to the workload (and its pods): a reconcile waits until the cache shows them. */
  readonly resourceVersionExpectations: ResourceVersionExpectations;
}

/** Read: the cached workload, and what is kept for it once it is gone. */
export interface WorkloadReader<W extends KubeObject> {
  /** The cached workload of the request; undefined when it was deleted (or is not this manager's). */
  get(request: Request): DeepReadonly<W> | undefined;
  /** The workload was deleted: what was kept for it (expectations, memories) goes too. */
  forget(key: string): void;
  /** The cached workload read with its API schema (defaults applied), or why it cannot be read. */
  parse(cached: DeepReadonly<W>): ParsedObject<W>;
}

/** How an app reports a spec it cannot act on: its condition, Event reason and the shape of its status. */
export interface UnusableSpecReporter {
  /** The problem of a workload its schema refuses (`message` names the fields). */
  unreadable(message: string): ReportedProblem;
  /** The counts the status schema requires (a new workload has no status yet): zeros, no pod was counted. */
  readonly zeroCounts: Readonly<Record<string, number>>;
  /** The status has `observedGeneration`: moved to this generation so that tools see the controller looked. */
  readonly observesGeneration: boolean;
  /** Sets the problem's condition; by default `setCondition` (a kind with its own condition shape passes its own). */
  readonly setProblemCondition?: (
    conditions: readonly WorkloadCondition[],
    problem: ReportedProblem,
    now: number,
  ) => WorkloadCondition[];
}

/** Validate: a spec the parse accepts but nothing may be made from (a template the API server refuses). */
export interface SpecValidator<W extends KubeObject> {
  validate(context: ReconcileContext, workload: DeepReadonly<W>): Promise<ReportedProblem | undefined>;
}

/** Wait: why the cache cannot be trusted yet (creations and deletions expected, our writes not shown). */
export interface CacheWaiter<W extends KubeObject> {
  waitForCache(context: ReconcileContext, workload: DeepReadonly<W>): WaitingForCache | undefined;
}

/** Sync: the app's own steps and status calculation. */
export interface WorkloadSyncer<W extends KubeObject, S> {
  sync(context: ReconcileContext, workload: DeepReadonly<W>): Promise<SyncOutcome<S>>;
}

/** Every step of one kind's reconcile; `validate` and `waitForCache` only where the kind has them. */
export interface WorkloadReconcileSteps<W extends WorkloadObject, S extends object>
  extends
    WorkloadReader<W>,
    UnusableSpecReporter,
    WorkloadSyncer<W, S>,
    Partial<SpecValidator<W>>,
    Partial<CacheWaiter<W>> {
  readonly clients: WorkloadClients<W>;
}
