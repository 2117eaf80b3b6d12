/**
 * The writes of an in-place update: strategic-merge patches of a pod, of its status (which also takes
 * metadata labels and annotations) and of pods/resize, each counted, and a bounded retry that reads
 * the pod again after a Conflict.
 */
import type { Pod } from '@kruise-ts/api';
import { isConflict } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, ResourceClient } from '@kruise-ts/controller-runtime';

type ReadonlyPod = DeepReadonly<Pod>;

/**
 * The API calls this package makes on pods: reads after conflicts, patches of pods, pods/status and
 * pods/resize. The caller's pod client carries the reconcile's abort signal.
 */
export type InPlaceUpdateClient = Pick<ResourceClient<Pod>, 'get' | 'patch' | 'patchStatus'>;

/** How often a write is retried on a fresh read after a Conflict before the Conflict is returned. */
export const MAX_CONFLICT_RETRIES = 5;

/** A client bound to one pod that counts the write requests it sends (failed ones included). */
export class PodWriter {
  readonly #client: InPlaceUpdateClient;
  readonly #key: { readonly namespace: string; readonly name: string };
  #writes = 0;

  constructor(client: InPlaceUpdateClient, pod: ReadonlyPod) {
    this.#client = client;
    this.#key = { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' };
  }

  /** Write requests sent so far. */
  get writes(): number {
    return this.#writes;
  }

  /** Strategic-merge patch of the pod. */
  async patch(body: object): Promise<ReadonlyPod> {
    this.#writes++;
    return this.#client.patch(this.#key, { type: 'strategic', body });
  }

  /** Strategic-merge patch of pods/status (conditions, and metadata labels/annotations). */
  async patchStatus(body: object): Promise<ReadonlyPod> {
    this.#writes++;
    return this.#client.patchStatus(this.#key, { type: 'strategic', body });
  }

  /** Strategic-merge patch of pods/resize (container resources). */
  async resize(body: object): Promise<ReadonlyPod> {
    this.#writes++;
    return this.#client.patch(this.#key, { type: 'strategic', body, subresource: 'resize' });
  }

  /**
   * Runs `attempt` with the pod; on Conflict reads the pod again and runs it once more, at most
   * MAX_CONFLICT_RETRIES times.
   */
  async withConflictRetry<T>(pod: ReadonlyPod, attempt: (pod: ReadonlyPod) => Promise<T>): Promise<T> {
    let current = pod;
    for (let retry = 0; ; retry++) {
      try {
        return await attempt(current);
      } catch (error) {
        if (!isConflict(error) || retry >= MAX_CONFLICT_RETRIES) {
          throw error;
        }
        current = await this.#client.get(this.#key);
      }
    }
  }
}

/** `metadata.resourceVersion` of the pod, as the optimistic-concurrency precondition of a patch. */
export function resourceVersionOf(pod: ReadonlyPod): { resourceVersion?: string } {
  const resourceVersion = pod.metadata?.resourceVersion;
  return resourceVersion === undefined ? {} : { resourceVersion };
}

/** Keeps only entries whose value differs from the pod's current one (absent counts as null). */
export function changedEntries(
  current: Readonly<Record<string, string>> | undefined,
  wanted: Readonly<Record<string, string | null>>,
): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(wanted).filter(([key, value]) => {
      const before = current !== undefined && Object.hasOwn(current, key) ? current[key] : null;
      return before !== value;
    }),
  );
}

/** `{labels, annotations}` for a patch's metadata, leaving out empty maps. */
export function metadataMaps(
  labels: Record<string, string | null>,
  annotations: Record<string, string | null>,
): { labels?: Record<string, string | null>; annotations?: Record<string, string | null> } {
  return {
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}
