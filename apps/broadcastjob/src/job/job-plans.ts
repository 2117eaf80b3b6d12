/**
 * The plan views of a controller's BroadcastJobs (PlanView), kept per job while the controller's
 * events feed it (PlanFeed): a reconcile brings its job's view up to date with what changed, and
 * builds it from the cache (every node, the job's pods) on the job's first reconcile, after its uid or
 * generation changed, or without a feed (a reconciler whose events nobody records, as in unit tests).
 */
import { BROADCASTJOB_CONTROLLER_UID_LABEL } from '@kruise-ts/api';
import type { BroadcastJob, Node, Pod } from '@kruise-ts/api';
import { controllerRef, requestKey } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, Lister } from '@kruise-ts/controller-runtime';

import type { FitResult } from './node-plan.ts';
import type { PlanFeed } from './plan-feed.ts';
import { PlanView } from './plan-view.ts';
import type { PlanViewSources } from './plan-view.ts';

type ReadonlyJob = DeepReadonly<BroadcastJob>;
type ReadonlyNode = DeepReadonly<Node>;

/** What the views read. */
export interface JobPlansDeps {
  readonly pods: Lister<Pod>;
  readonly nodes: Lister<Node>;
  readonly nodeOf: (pod: DeepReadonly<Pod>) => string | undefined;
  /** The changes the controller's events recorded; undefined: every reconcile plans from the whole cache. */
  readonly feed?: PlanFeed | undefined;
}

function jobKey(job: ReadonlyJob): string {
  return requestKey({ namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '' });
}

/** uid and generation; undefined (never reused) for a job without a generation. */
function viewVersion(job: ReadonlyJob): string | undefined {
  const generation = job.metadata.generation;
  return generation === undefined ? undefined : `${job.metadata.uid ?? ''}/${String(generation)}`;
}

/** The views (see the file's comment). */
export class JobPlans {
  readonly #deps: JobPlansDeps;
  readonly #views = new Map<string, PlanView>();
  /** How many views were built from the whole cache (for tests). */
  #builds = 0;

  constructor(deps: JobPlansDeps) {
    this.#deps = deps;
  }

  /** The job's view, up to date with the cache. */
  viewOf(job: ReadonlyJob, fit: (node: ReadonlyNode) => FitResult): PlanView {
    const key = jobKey(job);
    const version = viewVersion(job);
    const sources = this.#sources(job, fit);
    const current = this.#views.get(key);
    const changes = this.#deps.feed?.take(key);
    if (current !== undefined && version !== undefined && current.version === version && changes !== undefined) {
      current.update(sources, changes);
      return current;
    }
    this.#deps.feed?.track(key);
    this.#builds++;
    const view = new PlanView(version ?? '', sources, { pods: this.#jobPods(job), nodes: this.#deps.nodes.list() });
    if (this.#deps.feed !== undefined && version !== undefined) {
      this.#views.set(key, view);
    }
    return view;
  }

  /** Forgets a job by its key (deleted, or finished: it plans no more). */
  forget(key: string): void {
    this.#views.delete(key);
    this.#deps.feed?.untrack(key);
  }

  /** The keys of the jobs with a view kept. */
  jobKeys(): string[] {
    return [...this.#views.keys()];
  }

  get builds(): number {
    return this.#builds;
  }

  #sources(job: ReadonlyJob, fit: (node: ReadonlyNode) => FitResult): PlanViewSources {
    const { pods, nodes, nodeOf } = this.#deps;
    return { job, fit, nodeOf, getPod: (key) => pods.getByKey(key), getNode: (name) => nodes.get('', name) };
  }

  #jobPods(job: ReadonlyJob): DeepReadonly<Pod>[] {
    const uid = job.metadata.uid ?? '';
    return this.#deps.pods
      .list({
        namespace: job.metadata.namespace ?? '',
        labelSelector: { matchLabels: { [BROADCASTJOB_CONTROLLER_UID_LABEL]: uid } },
      })
      .filter((pod) => controllerRef(pod)?.uid === uid);
  }
}
