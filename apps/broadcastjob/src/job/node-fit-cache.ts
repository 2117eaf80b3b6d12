/**
 * Whether a job's template fits each node, kept between reconciles. Every pod event reconciles the
 * job, and the fit changes only when the template (the job's generation) or the node (its
 * resourceVersion) does, so a reconcile recomputes the fit of the nodes that changed and looks the
 * rest up: one template pod and one parse of its requests per generation, not per node and round
 * (docs/benchmarks.md measured the per-round recomputation at 13.1 of 16.2 s of reconcile CPU on
 * 1,000 nodes). Entries go with their job (deleted or finished) and with their node.
 */
import type { BroadcastJob, Node, Pod } from '@kruise-ts/api';
import { requestKey } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { templatePod } from './job-pod.ts';
import type { FitResult } from './node-plan.ts';

type ReadonlyNode = DeepReadonly<Node>;

/** A template pod's fit as a function of the node (its requests parsed once). */
export type FitnessOf = (pod: DeepReadonly<Pod>) => (node: ReadonlyNode) => FitResult;

interface NodeFit {
  readonly resourceVersion: string;
  readonly result: FitResult;
}

interface JobFits {
  /** The job and template the entry is for: uid and generation (the template's JSON when it has none). */
  readonly template: string;
  readonly fit: (node: ReadonlyNode) => FitResult;
  readonly nodes: Map<string, NodeFit>;
}

function templateKey(job: DeepReadonly<BroadcastJob>): string {
  const generation = job.metadata.generation;
  return `${job.metadata.uid ?? ''}/${generation === undefined ? JSON.stringify(job.spec.template) : String(generation)}`;
}

function jobKey(job: DeepReadonly<BroadcastJob>): string {
  return requestKey({ namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '' });
}

/** The fit cache of one controller (see the file's comment). */
export class NodeFitCache {
  readonly #fitnessOf: FitnessOf;
  /** Job key (`namespace/name`) → its template's fits. */
  readonly #jobs = new Map<string, JobFits>();
  #computed = 0;

  constructor(fitnessOf: FitnessOf) {
    this.#fitnessOf = fitnessOf;
  }

  /** The job's template fit per node, computed for a node only when it or the template changed. */
  fitOf(job: DeepReadonly<BroadcastJob>): (node: ReadonlyNode) => FitResult {
    const entry = this.#entry(job);
    return (node) => {
      const name = node.metadata?.name ?? '';
      const resourceVersion = node.metadata?.resourceVersion ?? '';
      const known = entry.nodes.get(name);
      if (known !== undefined && known.resourceVersion === resourceVersion && resourceVersion !== '') {
        return known.result;
      }
      this.#computed++;
      const result = entry.fit(node);
      entry.nodes.set(name, { resourceVersion, result });
      return result;
    };
  }

  /** Drops the fits of nodes that are gone (only when some are: the common round costs nothing). */
  retainNodes(
    job: DeepReadonly<BroadcastJob>,
    nodes: { readonly count: number; readonly has: (name: string) => boolean },
  ): void {
    const entry = this.#jobs.get(jobKey(job));
    if (entry === undefined || entry.nodes.size <= nodes.count) {
      return;
    }
    for (const name of entry.nodes.keys()) {
      if (!nodes.has(name)) {
        entry.nodes.delete(name);
      }
    }
  }

  /** Forgets a job by its key (deleted, or finished: it plans no more). */
  forget(key: string): void {
    this.#jobs.delete(key);
  }

  /** The keys of the jobs with fits kept. */
  jobKeys(): string[] {
    return [...this.#jobs.keys()];
  }

  /** How many fits were computed rather than looked up, since the cache was made (for tests and metrics). */
  get computed(): number {
    return this.#computed;
  }

  /** How many node fits are kept for the job of `key`. */
  size(key: string): number {
    return this.#jobs.get(key)?.nodes.size ?? 0;
  }

  #entry(job: DeepReadonly<BroadcastJob>): JobFits {
    const key = jobKey(job);
    const template = templateKey(job);
    const current = this.#jobs.get(key);
    if (current?.template === template) {
      return current;
    }
    const entry: JobFits = { template, fit: this.#fitnessOf(templatePod(job)), nodes: new Map() };
    this.#jobs.set(key, entry);
    return entry;
  }
}
