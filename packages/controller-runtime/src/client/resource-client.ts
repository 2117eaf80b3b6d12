import type {
  DeleteOptions,
  ObjectKeyRef,
  Patch,
  PatchOptions,
  Reader,
  StatusWriter,
  WriteOptions,
  Writer,
} from './client.ts';
import type { KubeObject } from './kube-object.ts';
import type { ResourceType } from './resource-type.ts';

/** Options of a write through a {@link ResourceClient}; the signal is the client's own. */
export type ResourceWriteOptions = Omit<WriteOptions, 'signal'>;
/** A patch through a {@link ResourceClient}: `{ type: 'strategic', body, subresource?: 'resize' }`. */
export type ResourcePatch = Patch & Omit<PatchOptions, 'signal'>;
/** Options of a delete through a {@link ResourceClient}. */
export type ResourceDeleteOptions = Omit<DeleteOptions, 'signal'>;

/**
 * The calls on one resource type that a sync step makes (client-go's typed `PodInterface`,
 * OpenKruise's `PodControl`), with one abort signal applied to every call. A reconcile builds its
 * resource clients with its own signal, so that a reconcile timeout or a shutdown cancels every
 * request it makes, including those deep inside shared packages that never see the signal. Steps
 * depend on the narrowest `Pick` of it they need; unit tests pass clients over an in-memory fake.
 */
export interface ResourceClient<T extends KubeObject> {
  readonly resource: ResourceType<T>;
  get(key: ObjectKeyRef): Promise<T>;
  create(object: T, options?: ResourceWriteOptions): Promise<T>;
  patch(key: ObjectKeyRef, patch: ResourcePatch): Promise<T>;
  /** A patch of the status subresource. */
  patchStatus(key: ObjectKeyRef, patch: Patch & ResourceWriteOptions): Promise<T>;
  delete(key: ObjectKeyRef, options?: ResourceDeleteOptions): Promise<void>;
}

/** What a {@link ResourceClient} is built over: the real client, or a fake one in unit tests. */
export type ObjectApi = Reader & Writer & StatusWriter;

/**
 * A client for one resource whose every request carries `signal` (none when undefined).
 *
 * @example
 * const pods = resourceClient(client, podResource, context.signal);
 * await pods.delete({ namespace, name }, { preconditions: { uid } });
 */
export function resourceClient<T extends KubeObject>(
  api: ObjectApi,
  resource: ResourceType<T>,
  signal?: AbortSignal,
): ResourceClient<T> {
  const withSignal = signal === undefined ? {} : { signal };
  return {
    resource,
    get: (key) => api.get(resource, key, signal),
    create: (object, options) => api.create(resource, object, { ...options, ...withSignal }),
    patch: (key, patch) => api.patch(resource, key, { ...patch, ...withSignal }),
    patchStatus: (key, patch) => api.patchStatus(resource, key, { ...patch, ...withSignal }),
    delete: (key, options) => api.delete(resource, key, { ...options, ...withSignal }),
  };
}

/** The key of an object, for the calls of a {@link ResourceClient}. */
export function keyOf(object: {
  readonly metadata?: { readonly namespace?: string | undefined; readonly name?: string | undefined } | undefined;
}): ObjectKeyRef {
  return { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' };
}
