/** An owner reference as the API serves it. */
export interface OwnerReferenceLike {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

/**
 * The object metadata the runtime reads. Any Kubernetes object type (client-node models in wire form,
 * our CRD types) fits structurally, so the runtime does not depend on a particular type library.
 */
export interface ObjectMetaLike {
  readonly name?: string;
  readonly generateName?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly OwnerReferenceLike[];
  readonly deletionTimestamp?: string;
  readonly creationTimestamp?: string;
  readonly finalizers?: readonly string[];
  readonly managedFields?: readonly unknown[];
}

/** Any Kubernetes object. */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ObjectMetaLike;
}

/** `namespace/name`, or `name` for cluster-scoped objects: the key of caches and work queues. */
export function objectKey(object: KubeObject): string {
  const namespace = object.metadata?.namespace ?? '';
  const name = object.metadata?.name ?? '';
  return namespace === '' ? name : `${namespace}/${name}`;
}

/** Splits a key made by `objectKey`. */
export function splitObjectKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** The owner reference with `controller: true`, if any. */
export function controllerRef(object: KubeObject): OwnerReferenceLike | undefined {
  return object.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}
