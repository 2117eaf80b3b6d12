import type { FieldFilter } from '@kruise-ts/kube-protobuf';

import { protobufRead } from './content-type.ts';
import type { ProtobufRead } from './content-type.ts';
import type { KubeObject } from './kube-object.ts';
import { apiVersionOf, resourcePath } from './resource-type.ts';
import type { ResourceType } from './resource-type.ts';
import type { HttpRequest, Transport } from './transport.ts';

/** Addresses one object. */
export interface ObjectKeyRef {
  readonly namespace?: string | undefined;
  readonly name: string;
}

export interface ListOptions {
  readonly namespace?: string | undefined;
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
  /** Page size; the server returns `metadata.continue` when more remain. */
  readonly limit?: number | undefined;
  readonly continue?: string | undefined;
  /** '' (default) reads the latest state from etcd; '0' may be served from the watch cache. */
  readonly resourceVersion?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Fields of the kind the caller drops anyway (an informer's cache): not decoded from a protobuf answer. */
  readonly fieldFilter?: FieldFilter | undefined;
}

/** One page of a list. */
export interface ObjectList<T> {
  readonly items: T[];
  readonly metadata: { readonly resourceVersion: string; readonly continue?: string };
}

export interface WriteOptions {
  readonly dryRun?: boolean | undefined;
  readonly fieldManager?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** The four patch types of the Kubernetes API. */
export type Patch =
  | { readonly type: 'merge'; readonly body: object }
  | { readonly type: 'strategic'; readonly body: object }
  | { readonly type: 'json'; readonly body: readonly JsonPatchOperation[] }
  | { readonly type: 'apply'; readonly body: object };

/** One RFC 6902 operation. */
export interface JsonPatchOperation {
  readonly op: 'add' | 'remove' | 'replace' | 'test' | 'move' | 'copy';
  readonly path: string;
  readonly value?: unknown;
  readonly from?: string;
}

export interface PatchOptions extends WriteOptions {
  /** `status`, `scale`, `resize`, ... */
  readonly subresource?: string | undefined;
  /** Server-side apply only: take over fields owned by other managers. */
  readonly force?: boolean | undefined;
}

/** A patch and how to send it: `{ type: 'merge', body: {...}, subresource: 'status' }`. */
export type PatchRequest = Patch & PatchOptions;

export interface DeleteOptions {
  readonly gracePeriodSeconds?: number | undefined;
  /** Delete only if the object still has this uid / resourceVersion. */
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string } | undefined;
  readonly propagationPolicy?: 'Foreground' | 'Background' | 'Orphan' | undefined;
  readonly dryRun?: boolean | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** Reads objects straight from the API (controllers read from informer caches instead). */
export interface Reader {
  get<T extends KubeObject>(resource: ResourceType<T>, key: ObjectKeyRef, signal?: AbortSignal): Promise<T>;
  list<T extends KubeObject>(resource: ResourceType<T>, options?: ListOptions): Promise<ObjectList<T>>;
  /** Lists every page; the result's resourceVersion is the first page's (the list's snapshot). */
  listAll<T extends KubeObject>(resource: ResourceType<T>, options?: ListOptions): Promise<ObjectList<T>>;
}

/** Changes objects. */
export interface Writer {
  create<T extends KubeObject>(resource: ResourceType<T>, object: T, options?: WriteOptions): Promise<T>;
  /** Full replace; fails with Conflict when `metadata.resourceVersion` is stale. */
  update<T extends KubeObject>(resource: ResourceType<T>, object: T, options?: WriteOptions): Promise<T>;
  patch<T extends KubeObject>(resource: ResourceType<T>, key: ObjectKeyRef, patch: PatchRequest): Promise<T>;
  delete(resource: ResourceType, key: ObjectKeyRef, options?: DeleteOptions): Promise<void>;
}

/** Changes the status subresource. */
export interface StatusWriter {
  updateStatus<T extends KubeObject>(resource: ResourceType<T>, object: T, options?: WriteOptions): Promise<T>;
  patchStatus<T extends KubeObject>(
    resource: ResourceType<T>,
    key: ObjectKeyRef,
    patch: Patch & WriteOptions,
  ): Promise<T>;
}

/** Everything a controller may do with the API, composed of the narrow interfaces above. */
export interface Client extends Reader, Writer, StatusWriter {
  readonly transport: Transport;
}

/** What sends one request and returns its parsed body; `Transport` is one, a command-line tool may bring a lighter one. */
export interface RequestSender {
  request(request: HttpRequest): Promise<unknown>;
}

/** A client without watches: reads and writes over any request sender. */
export type RestClient = Reader & Writer & StatusWriter;

const PATCH_CONTENT_TYPE: Readonly<Record<Patch['type'], string>> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

const DEFAULT_FIELD_MANAGER = 'kruise-ts';

/** Creates a client over a transport. */
export function createClient(transport: Transport, defaults: { fieldManager?: string } = {}): Client {
  return { ...createRestClient(transport, defaults), transport };
}

/** Creates a client of reads and writes over `transport` (no watches, which need the Transport's streams). */
export function createRestClient(transport: RequestSender, defaults: { fieldManager?: string } = {}): RestClient {
  const fieldManager = defaults.fieldManager ?? DEFAULT_FIELD_MANAGER;
  const send = async <T extends KubeObject>(resource: ResourceType<T>, request: HttpRequest): Promise<T> => {
    const raw = await transport.request(request);
    return resource.parse === undefined ? (raw as T) : resource.parse(raw);
  };
  const writeQuery = (options: WriteOptions | undefined): Record<string, string | undefined> => ({
    fieldManager: options?.fieldManager ?? fieldManager,
    dryRun: options?.dryRun === true ? 'All' : undefined,
  });
  const list = async <T extends KubeObject>(
    resource: ResourceType<T>,
    options: ListOptions = {},
  ): Promise<ObjectList<T>> => {
    const raw = (await transport.request({
      verb: 'list',
      method: 'GET',
      path: resourcePath(resource, { namespace: options.namespace }),
      query: listQuery(options),
      signal: options.signal,
      protobuf: protobufRead(resource, options.fieldFilter),
    })) as ObjectList<unknown>;
    const items = raw.items.map((item) => withTypeMeta(resource, item as T));
    return { ...raw, items: resource.parse === undefined ? items : items.map(resource.parse) };
  };
  return {
    get: (resource, key, signal) =>
      send(resource, {
        verb: 'get',
        method: 'GET',
        path: resourcePath(resource, key),
        signal,
        protobuf: protobufRead(resource, undefined),
      }),
    list,
    listAll: (resource, options) => listAllPages(list, resource, options),
    create: (resource, object, options) =>
      send(resource, {
        verb: 'create',
        method: 'POST',
        path: resourcePath(resource, { namespace: object.metadata?.namespace }),
        query: writeQuery(options),
        body: withTypeMeta(resource, object),
        signal: options?.signal,
        protobuf: writeAnswer(resource, undefined),
      }),
    update: (resource, object, options) =>
      send(resource, {
        verb: 'update',
        method: 'PUT',
        path: objectPath(resource, object),
        query: writeQuery(options),
        body: withTypeMeta(resource, object),
        signal: options?.signal,
        protobuf: writeAnswer(resource, undefined),
      }),
    updateStatus: (resource, object, options) =>
      send(resource, {
        verb: 'update',
        method: 'PUT',
        path: objectPath(resource, object, 'status'),
        query: writeQuery(options),
        body: withTypeMeta(resource, object),
        signal: options?.signal,
        protobuf: writeAnswer(resource, 'status'),
      }),
    patch: (resource, key, patch) =>
      send(resource, patchRequest({ resource, key, patch, query: patchQuery(patch, writeQuery(patch)) })),
    patchStatus: (resource, key, patch) =>
      send(
        resource,
        patchRequest({
          resource,
          key,
          patch: { ...patch, subresource: 'status' },
          query: patchQuery(patch, writeQuery(patch)),
        }),
      ),
    delete: async (resource, key, options) => {
      await transport.request({
        verb: 'delete',
        method: 'DELETE',
        path: resourcePath(resource, key),
        body: deleteBody(options),
        signal: options?.signal,
        protobuf: writeAnswer(resource, undefined),
        discardBody: true,
      });
    },
  };
}

function objectPath(resource: ResourceType, object: KubeObject, subresource?: string): string {
  return resourcePath(resource, {
    namespace: object.metadata?.namespace,
    name: object.metadata?.name ?? '',
    subresource,
  });
}

function listQuery(options: ListOptions): Record<string, string | number | undefined> {
  return {
    labelSelector: options.labelSelector,
    fieldSelector: options.fieldSelector,
    limit: options.limit,
    continue: options.continue,
    resourceVersion: options.resourceVersion,
  };
}

function patchQuery(patch: PatchRequest, base: Record<string, string | undefined>): Record<string, string | undefined> {
  return patch.type === 'apply' && patch.force === true ? { ...base, force: 'true' } : base;
}

interface PatchRequestInput {
  readonly resource: ResourceType;
  readonly key: ObjectKeyRef;
  readonly patch: PatchRequest;
  readonly query: Record<string, string | undefined>;
}

function patchRequest(input: PatchRequestInput): HttpRequest {
  return {
    verb: 'patch',
    method: 'PATCH',
    path: resourcePath(input.resource, { ...input.key, subresource: input.patch.subresource }),
    query: input.query,
    body: input.patch.body,
    contentType: PATCH_CONTENT_TYPE[input.patch.type],
    signal: input.patch.signal,
    protobuf: writeAnswer(input.resource, input.patch.subresource),
  };
}

/**
 * The answer to a write of an object or its status is the object, which the API server encodes in
 * protobuf for less CPU than in JSON (and we decode as fast): asked for as for reads. Other
 * subresources (scale, eviction) answer with other kinds, in JSON.
 */
function writeAnswer(resource: ResourceType, subresource: string | undefined): ProtobufRead | undefined {
  return subresource === undefined || subresource === 'status' ? protobufRead(resource, undefined) : undefined;
}

function deleteBody(options: DeleteOptions | undefined): object | undefined {
  if (options === undefined) {
    return undefined;
  }
  const { gracePeriodSeconds, preconditions, propagationPolicy, dryRun } = options;
  return {
    apiVersion: 'v1',
    kind: 'DeleteOptions',
    gracePeriodSeconds,
    preconditions,
    propagationPolicy,
    ...(dryRun === true ? { dryRun: ['All'] } : {}),
  };
}

/** List items come without apiVersion/kind; put them back so that objects look the same however read. */
function withTypeMeta<T extends KubeObject>(resource: ResourceType<T>, item: T): T {
  return { apiVersion: apiVersionOf(resource), kind: resource.kind, ...item };
}

async function listAllPages<T extends KubeObject>(
  list: (resource: ResourceType<T>, options?: ListOptions) => Promise<ObjectList<T>>,
  resource: ResourceType<T>,
  options: ListOptions = {},
): Promise<ObjectList<T>> {
  const first = await list(resource, { limit: 500, ...options });
  const items = [...first.items];
  let next = first.metadata.continue;
  while (next !== undefined && next !== '') {
    const page = await list(resource, {
      ...options,
      limit: options.limit ?? 500,
      continue: next,
      resourceVersion: undefined,
    });
    items.push(...page.items);
    next = page.metadata.continue;
  }
  return { items, metadata: { resourceVersion: first.metadata.resourceVersion } };
}
