/**
 * An in-memory API server for unit tests of sync steps (client-go's fake clientset with its object
 * tracker): it stores objects, applies merge, JSON and strategic merge patches, honours
 * resourceVersion and uid preconditions, records every call as an action, and lets a test inject
 * failures. Integration tests run against a real kube-apiserver; this fake only makes the decisions of
 * a step checkable in milliseconds. What it does not do: admission, validation, defaulting, graceful
 * deletion (a delete removes the object at once), server-side apply, watches.
 */
import type {
  DeleteOptions,
  ListOptions,
  ObjectKeyRef,
  ObjectList,
  Patch,
  PatchOptions,
  WriteOptions,
} from '../client/client.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { ObjectApi } from '../client/resource-client.ts';
import { apiVersionOf } from '../client/resource-type.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { Lister } from '../cache/lister.ts';
import type { IndexFunc } from '../cache/store.ts';
import { alreadyExists, conflict, invalid, notFound } from './fake-api-error.ts';
import { applyJsonPatch, JsonPatchError } from './json-patch.ts';
import { isJsonObject, jsonCopy } from './json-value.ts';
import type { JsonValue } from './json-value.ts';
import { fakeLister } from './fake-lister.ts';
import { applyMergePatch } from '../util/merge-patch.ts';
import { matchesSelectorString } from './selector-string.ts';
import { applyStrategicMergePatch } from './strategic-merge-patch.ts';

/** One call of the fake, in call order (client-go's `Action`). */
export interface FakeAction {
  readonly verb: 'get' | 'list' | 'create' | 'update' | 'patch' | 'delete';
  /** The resource's plural, e.g. `pods`. */
  readonly resource: string;
  readonly subresource?: string | undefined;
  readonly namespace: string;
  readonly name: string;
  readonly patchType?: Patch['type'] | undefined;
  /** The created or updated object, the patch body, or the delete options. */
  readonly body?: unknown;
  /** A server-side dry run (only `create` honours it): checked and answered, never stored. */
  readonly dryRun?: boolean | undefined;
}

/** Which actions a reactor handles; absent fields match anything. */
export interface ReactorMatch {
  readonly verb?: FakeAction['verb'] | undefined;
  readonly resource?: string | undefined;
  readonly subresource?: string | undefined;
  readonly name?: string | undefined;
}

/**
 * Runs before the fake acts: throw to make the call fail, return an object to answer with it instead,
 * or return undefined to let the fake act as usual.
 */
export type Reactor = (action: FakeAction) => unknown;

const WRITE_VERBS: ReadonlySet<FakeAction['verb']> = new Set(['create', 'update', 'patch', 'delete']);

type Stored = KubeObject & { metadata: NonNullable<KubeObject['metadata']> };

/** The fake API server; build resource clients over it with `resourceClient(fake, podResource, signal)`. */
export class FakeClient implements ObjectApi {
  /** Every call, in order. */
  readonly actions: FakeAction[] = [];
  readonly #objects = new Map<string, Map<string, Stored>>();
  readonly #reactors: { readonly match: ReactorMatch; readonly react: Reactor }[] = [];
  #resourceVersion = 100;
  #uids = 0;

  /** Stores objects as they are (a test's starting state), without recording actions. */
  seed<T extends KubeObject>(resource: ResourceType<T>, objects: readonly T[]): void {
    for (const object of objects) {
      this.#put(
        resource,
        this.#stamp(resource, jsonCopy(object) as Stored, { created: (object.metadata?.uid ?? '') === '' }),
      );
    }
  }

  /** The stored objects of a resource (copies). */
  objects<T extends KubeObject>(resource: ResourceType<T>): T[] {
    return [...(this.#objects.get(resourceKey(resource))?.values() ?? [])].map((object) => jsonCopy(object) as T);
  }

  /** A cache-like lister over the stored objects, as an informer would serve them once synced. */
  lister<T extends KubeObject>(
    resource: ResourceType<T>,
    indexers: Readonly<Record<string, IndexFunc<KubeObject>>> = {},
  ): Lister<T> {
    return fakeLister(() => this.objects(resource), indexers);
  }

  /** The write actions (create, update, patch, delete), in order; dry runs write nothing and are left out. */
  writes(): FakeAction[] {
    return this.actions.filter((action) => WRITE_VERBS.has(action.verb) && action.dryRun !== true);
  }

  /** Forgets the recorded actions (not the objects). */
  clearActions(): void {
    this.actions.length = 0;
  }

  /** Makes matching calls fail or answer differently; the reactor added last runs first. */
  prependReactor(match: ReactorMatch, react: Reactor): void {
    this.#reactors.unshift({ match, react });
  }

  get<T extends KubeObject>(resource: ResourceType<T>, key: ObjectKeyRef, signal?: AbortSignal): Promise<T> {
    return this.#call(
      signal,
      { verb: 'get', resource: resource.plural, namespace: key.namespace ?? '', name: key.name },
      () => this.#answer(resource, this.#existing(resource, key)),
    );
  }

  list<T extends KubeObject>(resource: ResourceType<T>, options: ListOptions = {}): Promise<ObjectList<T>> {
    return this.#call(
      options.signal,
      { verb: 'list', resource: resource.plural, namespace: options.namespace ?? '', name: '' },
      () => ({
        items: this.objects(resource).filter((object) => matchesScope(object, options)),
        metadata: { resourceVersion: String(this.#resourceVersion) },
      }),
    );
  }

  listAll<T extends KubeObject>(resource: ResourceType<T>, options?: ListOptions): Promise<ObjectList<T>> {
    return this.list(resource, options);
  }

  create<T extends KubeObject>(resource: ResourceType<T>, object: T, options?: WriteOptions): Promise<T> {
    const dryRun = options?.dryRun === true;
    const action: FakeAction = {
      verb: 'create',
      resource: resource.plural,
      namespace: object.metadata?.namespace ?? '',
      name: object.metadata?.name ?? '',
      body: jsonCopy(object),
      ...(dryRun ? { dryRun } : {}),
    };
    return this.#call(options?.signal, action, () => {
      const stored = this.#stamp(resource, jsonCopy(object) as Stored, { created: true });
      if (this.#find(resource, keyOf(stored)) !== undefined) {
        throw alreadyExists(resource.kind, stored.metadata.name ?? '');
      }
      return this.#answer(resource, dryRun ? stored : this.#put(resource, stored));
    });
  }

  update<T extends KubeObject>(resource: ResourceType<T>, object: T, options?: WriteOptions): Promise<T> {
    return this.#replace(resource, object, { signal: options?.signal, subresource: undefined });
  }

  updateStatus<T extends KubeObject>(resource: ResourceType<T>, object: T, options?: WriteOptions): Promise<T> {
    return this.#replace(resource, object, { signal: options?.signal, subresource: 'status' });
  }

  patch<T extends KubeObject>(resource: ResourceType<T>, key: ObjectKeyRef, patch: Patch & PatchOptions): Promise<T> {
    const action: FakeAction = {
      verb: 'patch',
      resource: resource.plural,
      subresource: patch.subresource,
      namespace: key.namespace ?? '',
      name: key.name,
      patchType: patch.type,
      body: jsonCopy(patch.body),
    };
    return this.#call(patch.signal, action, () => {
      const current = this.#existing(resource, key);
      const patched = applyPatch(current, patch) as unknown as Stored;
      checkResourceVersion(resource, {
        current,
        requested: isJsonObject(patch.body) ? requestedVersion(patch.body) : undefined,
      });
      return this.#answer(resource, this.#write(resource, { current, next: patched, subresource: patch.subresource }));
    });
  }

  patchStatus<T extends KubeObject>(
    resource: ResourceType<T>,
    key: ObjectKeyRef,
    patch: Patch & WriteOptions,
  ): Promise<T> {
    return this.patch(resource, key, { ...patch, subresource: 'status' });
  }

  delete(resource: ResourceType, key: ObjectKeyRef, options?: DeleteOptions): Promise<void> {
    const action: FakeAction = {
      verb: 'delete',
      resource: resource.plural,
      namespace: key.namespace ?? '',
      name: key.name,
      body: options?.preconditions,
    };
    return this.#call(options?.signal, action, () => {
      const current = this.#existing(resource, key);
      const { uid, resourceVersion } = options?.preconditions ?? {};
      if (
        (uid !== undefined && uid !== current.metadata.uid) ||
        (resourceVersion !== undefined && resourceVersion !== current.metadata.resourceVersion)
      ) {
        throw conflict(resource.kind, key.name, 'the precondition failed');
      }
      this.#objects.get(resourceKey(resource))?.delete(objectPath(key));
    });
  }

  /** Records the action, runs the reactors, then `act`; an aborted signal rejects without any of it. */
  #call<R>(signal: AbortSignal | undefined, action: FakeAction, act: () => R): Promise<R> {
    if (signal?.aborted === true) {
      return Promise.reject(signal.reason as Error);
    }
    this.actions.push(action);
    try {
      for (const reactor of this.#reactors) {
        const answer = matches(reactor.match, action) ? reactor.react(action) : undefined;
        if (answer !== undefined) {
          return Promise.resolve(jsonCopy(answer) as R);
        }
      }
      return Promise.resolve(act());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #replace<T extends KubeObject>(
    resource: ResourceType<T>,
    object: T,
    options: { signal: AbortSignal | undefined; subresource: string | undefined },
  ): Promise<T> {
    const action: FakeAction = {
      verb: 'update',
      resource: resource.plural,
      subresource: options.subresource,
      namespace: object.metadata?.namespace ?? '',
      name: object.metadata?.name ?? '',
      body: jsonCopy(object),
    };
    return this.#call(options.signal, action, () => {
      const current = this.#existing(resource, keyOf(object));
      checkResourceVersion(resource, { current, requested: object.metadata?.resourceVersion ?? '' });
      return this.#answer(
        resource,
        this.#write(resource, { current, next: jsonCopy(object) as Stored, subresource: options.subresource }),
      );
    });
  }

  /** Stores `next` in place of `current`: a status write keeps all but the status (and, for pods, labels, annotations and finalizers). */
  #write(resource: ResourceType, input: { current: Stored; next: Stored; subresource: string | undefined }): Stored {
    const { current, next } = input;
    const merged: Stored =
      input.subresource === 'status'
        ? statusWrite(resource, current, next)
        : { ...next, metadata: { ...next.metadata, ...identityOf(current) } };
    const specChanged =
      JSON.stringify((current as { spec?: unknown }).spec) !== JSON.stringify((merged as { spec?: unknown }).spec);
    const generation = (current.metadata.generation ?? 1) + (specChanged && input.subresource === undefined ? 1 : 0);
    return this.#put(resource, {
      ...merged,
      metadata: { ...merged.metadata, generation, resourceVersion: this.#nextVersion() },
    });
  }

  #stamp(resource: ResourceType, object: Stored, options: { created: boolean }): Stored {
    const metadata: { -readonly [K in keyof Stored['metadata']]: Stored['metadata'][K] } = { ...object.metadata };
    if (metadata.name === undefined || metadata.name === '') {
      metadata.name = `${metadata.generateName ?? ''}${String(++this.#uids).padStart(5, '0')}`;
    }
    if (options.created) {
      metadata.uid = `uid-${String(++this.#uids)}`;
      metadata.creationTimestamp ??= '2026-01-01T00:00:00Z';
      metadata.generation = 1;
    }
    metadata.resourceVersion =
      options.created || metadata.resourceVersion === undefined ? this.#nextVersion() : metadata.resourceVersion;
    return { ...object, apiVersion: apiVersionOf(resource), kind: resource.kind, metadata };
  }

  #nextVersion(): string {
    return String(++this.#resourceVersion);
  }

  #find(resource: ResourceType, key: ObjectKeyRef): Stored | undefined {
    return this.#objects.get(resourceKey(resource))?.get(objectPath(key));
  }

  #existing(resource: ResourceType, key: ObjectKeyRef): Stored {
    const found = this.#find(resource, key);
    if (found === undefined) {
      throw notFound(resource.kind, key.name);
    }
    return found;
  }

  #put(resource: ResourceType, object: Stored): Stored {
    const key = resourceKey(resource);
    const objects = this.#objects.get(key) ?? new Map<string, Stored>();
    this.#objects.set(key, objects);
    objects.set(objectPath(keyOf(object)), object);
    return object;
  }

  #answer<T extends KubeObject>(resource: ResourceType<T>, object: Stored): T {
    const copy = jsonCopy(object) as T;
    return resource.parse === undefined ? copy : resource.parse(copy);
  }
}

/** What no write can change: uid and creation time. */
function identityOf(object: Stored): { uid?: string; creationTimestamp?: string } {
  const { uid, creationTimestamp } = object.metadata;
  return { ...(uid === undefined ? {} : { uid }), ...(creationTimestamp === undefined ? {} : { creationTimestamp }) };
}

function resourceKey(resource: ResourceType): string {
  return `${resource.group}/${resource.version}/${resource.plural}`;
}

function keyOf(object: KubeObject): ObjectKeyRef {
  return { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' };
}

function objectPath(key: ObjectKeyRef): string {
  return `${key.namespace ?? ''}/${key.name}`;
}

function matches(match: ReactorMatch, action: FakeAction): boolean {
  return (
    (match.verb === undefined || match.verb === action.verb) &&
    (match.resource === undefined || match.resource === action.resource) &&
    (match.subresource === undefined || match.subresource === action.subresource) &&
    (match.name === undefined || match.name === action.name)
  );
}

function matchesScope(object: KubeObject, options: ListOptions): boolean {
  const namespace = options.namespace ?? '';
  return (
    (namespace === '' || object.metadata?.namespace === namespace) &&
    matchesSelectorString(options.labelSelector ?? '', object.metadata?.labels)
  );
}

function requestedVersion(body: Readonly<Record<string, JsonValue>>): string | undefined {
  const metadata = body['metadata'];
  const version = isJsonObject(metadata) ? metadata['resourceVersion'] : undefined;
  return typeof version === 'string' ? version : undefined;
}

/** A resourceVersion sent with a write is a precondition: a stale one is a Conflict, as on the API server. */
function checkResourceVersion(resource: ResourceType, input: { current: Stored; requested: string | undefined }): void {
  if (
    input.requested !== undefined &&
    input.requested !== '' &&
    input.requested !== input.current.metadata.resourceVersion
  ) {
    throw conflict(
      resource.kind,
      input.current.metadata.name ?? '',
      'the object has been modified; please apply your changes to the latest version and try again',
    );
  }
}

function applyPatch(current: Stored, patch: Patch): JsonValue {
  const document = current as unknown as JsonValue;
  switch (patch.type) {
    case 'merge':
      return applyMergePatch(document, patch.body as JsonValue);
    case 'strategic':
      return applyStrategicMergePatch(document, patch.body as JsonValue);
    case 'json':
      try {
        return applyJsonPatch(document, patch.body);
      } catch (error) {
        throw error instanceof JsonPatchError
          ? invalid(current.kind ?? '', current.metadata.name ?? '', error.message)
          : error;
      }
    case 'apply':
      throw new Error('the fake client does not implement server-side apply');
  }
}

/** The status subresource: only the status changes (and a pod's labels, annotations and finalizers, which pods/status accepts). */
function statusWrite(resource: ResourceType, current: Stored, next: Stored): Stored {
  const status = (next as { status?: unknown }).status;
  if (resource.group !== '' || resource.plural !== 'pods') {
    return { ...current, status } as Stored;
  }
  const { labels, annotations, finalizers } = next.metadata;
  return { ...current, status, metadata: { ...current.metadata, labels, annotations, finalizers } } as Stored;
}
