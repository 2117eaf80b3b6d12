/**
 * The data of a pod-template ControllerRevision, byte for byte as OpenKruise v1.9 writes it
 * (pkg/controller/cloneset/revision/cloneset_revision.go getPatch): the template after Go's typed round
 * trip, marked `"$patch":"replace"`, wrapped in `{"spec":{"template":...}}`, and marshalled with
 * encoding/json from a generic map (keys sorted, HTML escaped).
 */
import type { ControllerRevision, PodTemplateSpec } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { marshalGoJson } from './go-json.ts';
import { parseGoType } from './go-struct-table.ts';
import { POD_TEMPLATE_STRUCTS, POD_TEMPLATE_TYPE } from './pod-template-fields.generated.ts';
import { encodeTyped } from './typed-round-trip.ts';

/** The strategic-merge directive that makes a revision replace the whole template when applied. */
export const PATCH_DIRECTIVE = '$patch';

/**
 * The raw revision data for a pod template, e.g. for `{metadata:{labels:{app:'demo'}},spec:{containers:
 * [{name:'main',image:'nginx'}]}}`: `{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,
 * "labels":{"app":"demo"}},"spec":{"containers":[{"image":"nginx","name":"main","resources":{}}]}}}}`.
 * Throws a TemplateDecodeError where Go's decoder would fail.
 */
export function revisionData(template: DeepReadonly<PodTemplateSpec>): string {
  const typed = encodeTyped(template, parseGoType(POD_TEMPLATE_TYPE), { table: POD_TEMPLATE_STRUCTS, path: '' });
  return marshalGoJson({ spec: { template: { ...(typed as object), [PATCH_DIRECTIVE]: 'replace' } } });
}

/**
 * A copy of the pod template stored in a revision, without the `$patch` directive. It is in Go's
 * canonical form (`creationTimestamp: null`, canonical quantities, zero values of non-omitempty fields),
 * which the API server accepts as a pod template. A copy, because revisions usually come from a cache.
 */
export function templateFromRevision(revision: Pick<ControllerRevision, 'data'>): PodTemplateSpec {
  const template = objectAt(
    objectAt(objectAt(revision.data, 'data')['spec'], 'data.spec')['template'],
    'data.spec.template',
  );
  return structuredClone(Object.fromEntries(Object.entries(template).filter(([key]) => key !== PATCH_DIRECTIVE)));
}

function objectAt(value: unknown, path: string): Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`the revision has no object at ${path}`);
  }
  return value as Readonly<Record<string, unknown>>;
}
