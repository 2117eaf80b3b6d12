/**
 * The writes behind choosing an update revision (OpenKruise getActiveRevisions with
 * pkg/util/history CreateControllerRevision and UpdateControllerRevision): create the candidate, escape
 * name collisions by counting them into the hash, or renumber an older equal revision for a rollback.
 * Everything is bounded; OpenKruise's collision loop is not.
 */
import type { ControllerRevision, PodTemplateSpec } from '@kruise-ts/api';
import { isAlreadyExists, isConflict } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, ResourceClient } from '@kruise-ts/controller-runtime';
import { withBucketLabel } from '@kruise-ts/sharding';

import { controllerRevisionFromCandidate, templateCandidate } from './controller-revision.ts';
import type { RevisionCandidate, RevisionOwner } from './controller-revision.ts';
import { goWireValue } from './go-wire-json.ts';
import { equalRevision, planUpdateRevision, sortRevisions } from './revision-history.ts';

/** Name collisions tolerated before giving up (each one means an unrelated object holds the name). */
export const MAX_COLLISION_RETRIES = 10;
/** Conflicts tolerated while renumbering a revision. */
export const MAX_CONFLICT_RETRIES = 5;

/** The calls on ControllerRevisions the revision writes make (the client carries the reconcile's signal). */
export type RevisionClient = Pick<ResourceClient<ControllerRevision>, 'get' | 'create' | 'patch'>;

/** Inputs of {@link ensureUpdateRevision}. */
export interface EnsureUpdateRevisionOptions {
  readonly client: RevisionClient;
  readonly owner: RevisionOwner;
  /** The workload's pod template; or, for an owner without one, `candidate`. Exactly one of the two. */
  readonly template?: DeepReadonly<PodTemplateSpec> | undefined;
  /** The revision's raw data and labels, for owners whose revisions are not a pod template (SidecarSet). */
  readonly candidate?: RevisionCandidate | undefined;
  /** Copied onto a new revision (OpenKruise copies all CloneSet annotations). */
  readonly ownerAnnotations?: Readonly<Record<string, string>> | undefined;
  /**
   * Set on an older equal revision when it is reused, in the same write as its new number; OpenKruise
   * refreshes the volumeClaimTemplates hash annotation this way.
   */
  readonly reuseAnnotations?: Readonly<Record<string, string>> | undefined;
  /** The owner's revisions (any order), as a cache hands them out. */
  readonly revisions: readonly DeepReadonly<ControllerRevision>[];
  /** `status.collisionCount`, 0 when unset. */
  readonly collisionCount: number;
}

/** The outcome of {@link ensureUpdateRevision}. */
export interface UpdateRevisionResult {
  readonly updateRevision: DeepReadonly<ControllerRevision>;
  /** To be written to `status.collisionCount` (grows by one per name collision). */
  readonly collisionCount: number;
  /** The history after the write, sorted, with the update revision in it. */
  readonly revisions: DeepReadonly<ControllerRevision>[];
}

/**
 * Makes sure a revision of `template` exists and is the newest, as OpenKruise's getActiveRevisions does:
 * reuses the latest revision when its data is equal (no write), renumbers the newest older equal one to
 * the next number (a rollback keeps its name, so pods at it stay "updated"), or creates a new one. The
 * returned collisionCount belongs in the workload's status so the next reconcile starts from it.
 */
export async function ensureUpdateRevision(options: EnsureUpdateRevisionOptions): Promise<UpdateRevisionResult> {
  const candidate = candidateOf(options);
  const plan = planUpdateRevision({ revisions: options.revisions, candidate: candidate.raw });
  switch (plan.kind) {
    case 'existing-latest':
      return {
        updateRevision: plan.revision,
        collisionCount: options.collisionCount,
        revisions: sortRevisions(options.revisions),
      };
    case 'reuse-older': {
      const renumbered = await renumberRevision(options, { revision: plan.revision, next: plan.nextRevision });
      return {
        updateRevision: renumbered,
        collisionCount: options.collisionCount,
        revisions: withRevision(options.revisions, renumbered),
      };
    }
    case 'create': {
      const created = await createRevision(options, { candidate, next: plan.nextRevision });
      return { ...created, revisions: withRevision(options.revisions, created.updateRevision) };
    }
  }
}

function candidateOf(options: EnsureUpdateRevisionOptions): RevisionCandidate {
  if (options.candidate !== undefined) {
    return options.candidate;
  }
  if (options.template !== undefined) {
    return templateCandidate(options.template);
  }
  throw new TypeError('ensureUpdateRevision needs a template or a candidate');
}

/**
 * Creates the candidate; on AlreadyExists reuses the existing object when its data is equal, otherwise
 * counts a collision and tries the next name.
 */
async function createRevision(
  options: EnsureUpdateRevisionOptions,
  input: { candidate: RevisionCandidate; next: number },
): Promise<{ updateRevision: ControllerRevision; collisionCount: number }> {
  const { client, owner, ownerAnnotations } = options;
  for (
    let collisionCount = options.collisionCount;
    collisionCount <= options.collisionCount + MAX_COLLISION_RETRIES;
    collisionCount++
  ) {
    const revision = controllerRevisionFromCandidate({
      owner,
      candidate: input.candidate,
      ownerAnnotations,
      collisionCount,
      revision: input.next,
    });
    try {
      // The data goes out in Go's exact bytes: the API server keeps them, and OpenKruise compares them.
      // With its owner's bucket label, so that a sharded replica caches it with its owner (docs/sharding.md).
      const created = await client.create(
        withBucketLabel({ ...revision, data: goWireValue(revision.data) }, `${owner.namespace}/${owner.name}`),
      );
      return { updateRevision: created, collisionCount };
    } catch (error) {
      if (!isAlreadyExists(error)) {
        throw error;
      }
    }
    const existing = await client.get({ namespace: owner.namespace, name: revision.metadata?.name ?? '' });
    if (equalRevision(existing, input.candidate.raw)) {
      return { updateRevision: existing, collisionCount };
    }
  }
  throw new Error(
    `cannot create a revision of ${owner.namespace}/${owner.name}: ${String(MAX_COLLISION_RETRIES + 1)} names in a row are taken by revisions with other data`,
  );
}

/**
 * Gives an older revision the next number. A merge patch rather than an update: an update re-sends
 * `data`, and bytes re-serialised by JavaScript may differ from the stored ones, which the API server
 * rejects as a change of an immutable field. The resourceVersion makes it optimistic, as an update is.
 */
async function renumberRevision(
  options: EnsureUpdateRevisionOptions,
  input: { revision: DeepReadonly<ControllerRevision>; next: number },
): Promise<DeepReadonly<ControllerRevision>> {
  const { client } = options;
  const key = {
    namespace: input.revision.metadata?.namespace ?? options.owner.namespace,
    name: input.revision.metadata?.name ?? '',
  };
  let current = input.revision;
  for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
    if (current.revision === input.next && hasAnnotations(current, options.reuseAnnotations)) {
      return current;
    }
    try {
      return await client.patch(key, {
        type: 'merge',
        body: renumberPatch(current, { next: input.next, annotations: options.reuseAnnotations }),
      });
    } catch (error) {
      if (!isConflict(error)) {
        throw error;
      }
    }
    current = await client.get(key);
  }
  throw new Error(
    `cannot renumber revision ${key.namespace}/${key.name}: it kept changing (${String(MAX_CONFLICT_RETRIES + 1)} conflicts)`,
  );
}

function renumberPatch(
  revision: DeepReadonly<ControllerRevision>,
  change: { next: number; annotations: Readonly<Record<string, string>> | undefined },
): object {
  const annotations = change.annotations === undefined ? {} : { annotations: change.annotations };
  return { metadata: { resourceVersion: revision.metadata?.resourceVersion, ...annotations }, revision: change.next };
}

function hasAnnotations(
  revision: DeepReadonly<ControllerRevision>,
  annotations: Readonly<Record<string, string>> | undefined,
): boolean {
  return Object.entries(annotations ?? {}).every(([key, value]) => revision.metadata?.annotations?.[key] === value);
}

function withRevision(
  revisions: readonly DeepReadonly<ControllerRevision>[],
  revision: DeepReadonly<ControllerRevision>,
): DeepReadonly<ControllerRevision>[] {
  const name = revision.metadata?.name;
  return sortRevisions([...revisions.filter((existing) => existing.metadata?.name !== name), revision]);
}
