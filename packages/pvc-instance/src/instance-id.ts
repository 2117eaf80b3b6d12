/**
 * Instance ids: the 5-character suffix shared by a CloneSet pod (`<owner>-<id>`) and its PVCs, and
 * their allocation with PVC reuse (OpenKruise's `getOrGenAvailableIDs`).
 */
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { CLONESET_INSTANCE_ID_LABEL } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/** The characters of generated ids (Kubernetes' `rand.String`: no vowels, no 0, 1 or 3, so no words). */
export const INSTANCE_ID_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Length of generated ids. */
export const INSTANCE_ID_LENGTH = 5;

/** Anything with labels: pods and PVCs. */
export interface Labelled {
  readonly metadata?:
    | {
        readonly labels?: Readonly<Record<string, string>> | undefined;
        readonly deletionTimestamp?: string | undefined;
      }
    | undefined;
}

/** Options of {@link allocateInstanceIds}. */
export interface AllocateInstanceIdsOptions {
  /** How many ids to return. */
  readonly count: number;
  /** The owner's active pods: their ids are taken. */
  readonly activePods: readonly DeepReadonly<Pod>[];
  /** The owner's PVCs: ids of those no active pod uses are reused first. */
  readonly pvcs: readonly DeepReadonly<PersistentVolumeClaim>[];
  /** Uniform random numbers in [0, 1); Math.random by default. */
  readonly random?: (() => number) | undefined;
}

/**
 * A random id of {@link INSTANCE_ID_LENGTH} characters from {@link INSTANCE_ID_ALPHABET}
 * (27⁵ ≈ 14.3 million values).
 */
export function randomInstanceId(random: () => number = Math.random): string {
  let id = '';
  for (let i = 0; i < INSTANCE_ID_LENGTH; i++) {
    const index = Math.min(
      INSTANCE_ID_ALPHABET.length - 1,
      Math.max(0, Math.floor(random() * INSTANCE_ID_ALPHABET.length)),
    );
    id += INSTANCE_ID_ALPHABET.charAt(index);
  }
  return id;
}

/** The object's `apps.kruise.io/cloneset-instance-id` label; undefined when unset or empty. */
export function instanceIdOf(object: Labelled): string | undefined {
  const labels = object.metadata?.labels;
  const id =
    labels !== undefined && Object.hasOwn(labels, CLONESET_INSTANCE_ID_LABEL)
      ? labels[CLONESET_INSTANCE_ID_LABEL]
      : undefined;
  return id === '' ? undefined : id;
}

function idsOf(objects: readonly Labelled[]): Set<string> {
  return new Set(objects.flatMap((object) => instanceIdOf(object) ?? []));
}

function isDeleting(object: Labelled): boolean {
  return (object.metadata?.deletionTimestamp ?? '') !== '';
}

/**
 * Ids for `count` new pods, sorted ascending: first the ids of PVCs that no active pod uses (so a
 * replacement pod gets its predecessor's volumes), then random ids not used by any active pod or
 * PVC. Example: active pods x1, x2; PVCs of x2 and y9 ⇒ for count 2, `y9` is reused and one new id
 * is generated. Callers give the first ids of the result to the current revision, the rest to the
 * update revision. PVCs being deleted are not reused, but their ids are never generated anew.
 */
export function allocateInstanceIds(options: AllocateInstanceIdsOptions): string[] {
  const random = options.random ?? Math.random;
  const active = idsOf(options.activePods);
  const taken = new Set([...active, ...idsOf(options.pvcs)]);
  const reusable = [...idsOf(options.pvcs.filter((pvc) => !isDeleting(pvc)))].filter((id) => !active.has(id)).sort();
  const ids = reusable.slice(0, Math.max(0, options.count));
  while (ids.length < options.count) {
    const id = randomInstanceId(random);
    // Generated ids join `taken`, so one allocation never returns the same id twice.
    if (!taken.has(id)) {
      taken.add(id);
      ids.push(id);
    }
  }
  return ids.sort();
}
