/**
 * ReplicaSet-style ownership of pods (Kubernetes' ControllerRefManager, OpenKruise's refmanager):
 * adopt matching orphans, release owned pods whose labels stopped matching, ignore pods of other
 * controllers.
 *
 * Writes are JSON patches guarded by `test` operations on the pod's uid and its current
 * ownerReferences: if another actor changed the references since the pod was read (adopted it,
 * released it), the API server rejects the patch instead of overwriting that change, and the next
 * reconcile decides again from the fresh state.
 */
import type { OwnerReference, Pod } from '@kruise-ts/api';
import { controllerRef, isNotFound, matchesLabelSelector } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, JsonPatchOperation, LabelSelector, Patch } from '@kruise-ts/controller-runtime';

import { isBeingDeleted } from './pod-state.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** The workload claiming pods. */
export interface ClaimOwner {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  /** For example `apps.kruise.io/v1alpha1`. */
  readonly apiVersion: string;
  readonly kind: string;
  /** The owner has a deletionTimestamp: nothing is adopted or released. */
  readonly deleting: boolean;
}

/** A JSON patch as the client sends it. */
export type JsonPatch = Extract<Patch, { readonly type: 'json' }>;

/** Options of {@link claimPods}. */
export interface ClaimPodsOptions {
  readonly owner: ClaimOwner;
  /** The owner's pod selector. */
  readonly selector: LabelSelector;
  /** Candidate pods (for example all active pods of the namespace that reference the owner). */
  readonly pods: readonly ReadonlyPod[];
  /** Sends a patch to one pod and returns the pod as the API server returned it. */
  readonly patchPod: (pod: ReadonlyPod, patch: JsonPatch) => Promise<ReadonlyPod>;
  /**
   * Confirms from a fresh read (not the cache) that the owner still exists with the same uid and is
   * not being deleted; called at most once, and only when there is an orphan to adopt.
   */
  readonly canAdopt: () => Promise<boolean>;
}

/** What claiming decided for one pod. */
export type ClaimDecision = 'keep' | 'adopt' | 'release' | 'ignore';

/** An owner reference that makes `owner` the controller of an object (controller and blockOwnerDeletion true). */
export function newControllerRef(owner: Pick<ClaimOwner, 'apiVersion' | 'kind' | 'name' | 'uid'>): OwnerReference {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true };
}

/**
 * Whether a freshly read owner may adopt: same uid as the owner the reconcile started with and no
 * deletionTimestamp (a recreated owner with the same name must not adopt its predecessor's pods).
 */
export function isSameLiveOwner(fresh: { readonly metadata?: { readonly uid?: string; readonly deletionTimestamp?: string } | undefined }, uid: string): boolean {
  return fresh.metadata?.uid === uid && !isBeingDeleted(fresh);
}

/**
 * Decides, without writing, what {@link claimPods} does with one pod: `keep` (ours and matching),
 * `adopt` (orphan, matching, not deleting, owner not deleting), `release` (ours, not matching, owner
 * not deleting) or `ignore` (someone else's, or nothing to do).
 */
export function claimDecision(input: { readonly owner: ClaimOwner; readonly selector: LabelSelector; readonly pod: ReadonlyPod }): ClaimDecision {
  const { owner, pod } = input;
  const ref = controllerRef(pod);
  const matches = matchesLabelSelector(input.selector, pod.metadata?.labels);
  if (ref !== undefined) {
    if (ref.uid !== owner.uid) {
      return 'ignore';
    }
    // Keeping what we own takes no write, so it is allowed while the owner is being deleted.
    if (matches) {
      return 'keep';
    }
    return owner.deleting ? 'ignore' : 'release';
  }
  return matches && !owner.deleting && !isBeingDeleted(pod) ? 'adopt' : 'ignore';
}

function preconditions(pod: ReadonlyPod): JsonPatchOperation[] {
  return [
    { op: 'test', path: '/metadata/uid', value: pod.metadata?.uid ?? '' },
    // A missing list is tested with null, which the API server's JSON patch accepts for absent paths.
    { op: 'test', path: '/metadata/ownerReferences', value: pod.metadata?.ownerReferences ?? null },
  ];
}

/** The guarded JSON patch that adds `owner` as the pod's controller. */
export function adoptPatch(pod: ReadonlyPod, owner: ClaimOwner): JsonPatch {
  const ref = newControllerRef(owner);
  const add: JsonPatchOperation =
    pod.metadata?.ownerReferences === undefined
      ? { op: 'add', path: '/metadata/ownerReferences', value: [ref] }
      : { op: 'add', path: '/metadata/ownerReferences/-', value: ref };
  return { type: 'json', body: [...preconditions(pod), add] };
}

/** The guarded JSON patch that removes every reference to `ownerUid`; undefined when there is none. */
export function releasePatch(pod: ReadonlyPod, ownerUid: string): JsonPatch | undefined {
  const refs = pod.metadata?.ownerReferences ?? [];
  // Remove from the end so that earlier indexes stay valid while the patch applies.
  const removals = refs
    .map((ref, index) => ({ ref, index }))
    .filter(({ ref }) => ref.uid === ownerUid)
    .reverse()
    .map(({ index }): JsonPatchOperation => ({ op: 'remove', path: `/metadata/ownerReferences/${String(index)}` }));
  return removals.length === 0 ? undefined : { type: 'json', body: [...preconditions(pod), ...removals] };
}

function ownerDescription(owner: ClaimOwner): string {
  return `${owner.kind} ${owner.namespace}/${owner.name} (uid ${owner.uid})`;
}

/** Runs one write; a pod that is gone is simply not claimed. */
async function guardedWrite(write: () => Promise<ReadonlyPod>): Promise<{ pod?: ReadonlyPod; error?: unknown }> {
  try {
    return { pod: await write() };
  } catch (error) {
    return isNotFound(error) ? {} : { error };
  }
}

interface ClaimStep {
  readonly claimed?: ReadonlyPod;
  readonly error?: unknown;
}

async function adopt(options: ClaimPodsOptions, pod: ReadonlyPod, adoptable: () => Promise<boolean>): Promise<ClaimStep> {
  const name = pod.metadata?.name ?? '';
  let allowed: boolean;
  try {
    allowed = await adoptable();
  } catch (error) {
    return { error: new Error(`can't adopt pod ${name}: reading ${ownerDescription(options.owner)} failed`, { cause: error }) };
  }
  if (!allowed) {
    return { error: new Error(`can't adopt pod ${name}: ${ownerDescription(options.owner)} is gone or being deleted`) };
  }
  const result = await guardedWrite(() => options.patchPod(pod, adoptPatch(pod, options.owner)));
  return result.error === undefined ? (result.pod === undefined ? {} : { claimed: result.pod }) : { error: new Error(`can't adopt pod ${name}`, { cause: result.error }) };
}

async function release(options: ClaimPodsOptions, pod: ReadonlyPod): Promise<ClaimStep> {
  const patch = releasePatch(pod, options.owner.uid);
  if (patch === undefined) {
    return {};
  }
  const result = await guardedWrite(() => options.patchPod(pod, patch));
  return result.error === undefined ? {} : { error: new Error(`can't release pod ${pod.metadata?.name ?? ''}`, { cause: result.error }) };
}

function once(check: () => Promise<boolean>): () => Promise<boolean> {
  let result: Promise<boolean> | undefined;
  return () => (result ??= check());
}

async function claimOne(options: ClaimPodsOptions, pod: ReadonlyPod, adoptable: () => Promise<boolean>): Promise<ClaimStep> {
  const decision = claimDecision({ owner: options.owner, selector: options.selector, pod });
  switch (decision) {
    case 'keep':
      return { claimed: pod };
    case 'ignore':
      return {};
    case 'adopt':
      return adopt(options, pod, adoptable);
    case 'release':
      return release(options, pod);
  }
}

/**
 * Claims pods for `owner` and returns the claimed ones (adopted pods as the API server returned them)
 * in input order. Owned matching pods are kept; owned pods whose labels no longer match are released;
 * matching orphans that are not being deleted are adopted once `canAdopt()` confirms the owner;
 * pods controlled by others are ignored; while the owner is deleting nothing is adopted or released.
 * Pods that disappeared (NotFound) are skipped. Every pod is tried; if any write failed, an
 * AggregateError of the failures is thrown afterwards (the reconcile should retry, as upstream).
 */
export async function claimPods(options: ClaimPodsOptions): Promise<ReadonlyPod[]> {
  const adoptable = once(options.canAdopt);
  const claimed: ReadonlyPod[] = [];
  const errors: unknown[] = [];
  for (const pod of options.pods) {
    // Nearly every pod is kept as it is: no write, so no await (a microtask per pod of a 10,000-pod workload).
    if (claimDecision({ owner: options.owner, selector: options.selector, pod }) === 'keep') {
      claimed.push(pod);
      continue;
    }
    const step = await claimOne(options, pod, adoptable);
    if (step.claimed !== undefined) {
      claimed.push(step.claimed);
    }
    if (step.error !== undefined) {
      errors.push(step.error);
    }
  }
  if (errors.length > 0) {
    throw new AggregateError(errors, `claiming pods for ${ownerDescription(options.owner)}: ${String(errors.length)} change(s) failed`);
  }
  return claimed;
}
