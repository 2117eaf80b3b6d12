import type { KubeObject } from './kube-object.ts';

/**
 * Describes one API resource: where it lives and what it is. `T` is the object type the client and
 * caches hand out; `parse`, when given, validates every object entering from the API (for our own
 * CRDs; core objects are trusted to match the apiserver's schema to keep hot paths cheap).
 */
export interface ResourceType<T extends KubeObject = KubeObject> {
  /** API group; '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly parse?: (raw: unknown) => T;
}

/** `apps.kruise.io/v1alpha1`, or `v1` for the core group. */
export function apiVersionOf(resource: ResourceType): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}

export interface ResourcePathOptions {
  readonly namespace?: string | undefined;
  readonly name?: string | undefined;
  readonly subresource?: string | undefined;
}

/** The REST path of a collection, an object or a subresource of it. */
export function resourcePath(resource: ResourceType, options: ResourcePathOptions = {}): string {
  const base = resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
  const scope =
    resource.namespaced && options.namespace !== undefined && options.namespace !== ''
      ? `/namespaces/${encodeURIComponent(options.namespace)}`
      : '';
  const name = options.name === undefined ? '' : `/${encodeURIComponent(options.name)}`;
  const subresource = options.subresource === undefined || options.name === undefined ? '' : `/${options.subresource}`;
  return `${base}${scope}/${resource.plural}${name}${subresource}`;
}

/** Defines a resource type; a helper so that `T` is stated once. */
export function defineResource<T extends KubeObject>(resource: ResourceType<T>): ResourceType<T> {
  return resource;
}
