/**
 * A SidecarSet's ControllerRevision content (§B.8.2), byte for byte as OpenKruise's history control
 * writes it (pkg/control/sidecarcontrol history_control.go getPatch): the typed SidecarSet encoded,
 * decoded into generic maps, its `volumes`, `containers`, `initContainers`, `imagePullSecrets` and
 * `patchPodMetadata` picked under `"$patch":"replace"`, and marshalled again (keys sorted, absent
 * fields `null`). Checked against Go in test/integration/hash-golden.test.ts.
 *
 * And the reverse: the SidecarSet a pinned revision stands for (GetHistorySidecarSet), used by the
 * pod webhook when `injectionStrategy.revision` is set.
 */
import {
  SIDECARSET_CUSTOM_VERSION_LABEL,
  SIDECARSET_HASH_ANNOTATION,
  SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION,
  SIDECARSET_NAME_LABEL,
} from '@kruise-ts/api';
import type { ControllerRevision, SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { marshalGoJson, marshalTypedJson } from '@kruise-ts/revision';
import type { GoStructTable, RevisionCandidate } from '@kruise-ts/revision';

import { defaultSidecarContainer } from '../hash/container-defaults.ts';
import { SIDECAR_CONTAINER_STRUCTS } from '../hash/sidecar-container-fields.ts';
import { sidecarSetHash, sidecarSetHashWithoutImage } from '../hash/sidecarset-hash.ts';

type ReadonlySidecarSet = DeepReadonly<SidecarSet>;
type Json = Record<string, unknown>;

/** The spec fields a revision records, in getPatch's order. */
export const REVISION_SPEC_FIELDS = [
  'volumes',
  'containers',
  'initContainers',
  'imagePullSecrets',
  'patchPodMetadata',
] as const;

const TABLE: GoStructTable = {
  ...SIDECAR_CONTAINER_STRUCTS,
  SidecarSetPatchPodMetadata: [
    { json: 'annotations', type: 'map[string]string', omitempty: true },
    { json: 'patchPolicy', type: 'string', omitempty: true },
  ],
};

const FIELD_TYPES: Readonly<Record<(typeof REVISION_SPEC_FIELDS)[number], string>> = {
  volumes: '[]Volume',
  containers: '[]SidecarContainer',
  initContainers: '[]SidecarContainer',
  imagePullSecrets: '[]LocalObjectReference',
  patchPodMetadata: '[]SidecarSetPatchPodMetadata',
};

/** The stored set's sidecars after the webhook's container defaults (OpenKruise stores them defaulted). */
function defaultedContainers(list: readonly unknown[] | undefined): unknown[] | undefined {
  return list?.map((container) => defaultSidecarContainer(structuredClone(container) as Json));
}

/** One field as Go's generic map holds it: absent and empty lists (omitempty) are nil. */
function typedField(set: ReadonlySidecarSet, field: (typeof REVISION_SPEC_FIELDS)[number]): unknown {
  const value =
    field === 'containers' || field === 'initContainers' ? defaultedContainers(set.spec[field]) : set.spec[field];
  if (value === undefined || value.length === 0) {
    return null;
  }
  return JSON.parse(marshalTypedJson(value, FIELD_TYPES[field], TABLE)) as unknown;
}

/** The revision's raw data, e.g. `{"spec":{"$patch":"replace","containers":[...],"imagePullSecrets":null,...}}`. */
export function sidecarSetRevisionData(set: ReadonlySidecarSet): string {
  const spec: Json = { $patch: 'replace' };
  for (const field of REVISION_SPEC_FIELDS) {
    spec[field] = typedField(set, field);
  }
  return marshalGoJson({ spec });
}

/** The custom version a SidecarSet declares (v1alpha1: a label on the SidecarSet). */
export function customVersionOf(set: ReadonlySidecarSet): string {
  return set.metadata.labels?.[SIDECARSET_CUSTOM_VERSION_LABEL] ?? '';
}

/** Data and labels: the SidecarSet's labels, `kruise.io/sidecarset-name`, and its custom version if any. */
export function sidecarSetRevisionCandidate(set: ReadonlySidecarSet): RevisionCandidate {
  return {
    raw: sidecarSetRevisionData(set),
    labels: { ...set.metadata.labels, [SIDECARSET_NAME_LABEL]: set.metadata.name ?? '' },
  };
}

/** A new revision's annotations: the SidecarSet's, with both hashes (OpenKruise's webhook keeps them on the set; we compute them). */
export function sidecarSetRevisionAnnotations(set: ReadonlySidecarSet): Record<string, string> {
  return {
    ...set.metadata.annotations,
    [SIDECARSET_HASH_ANNOTATION]: sidecarSetHash(set.spec),
    [SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION]: sidecarSetHashWithoutImage(set.spec),
  };
}

function recordedSpec(revision: DeepReadonly<ControllerRevision>): Json | undefined {
  const data = revision.data as { readonly spec?: unknown } | null | undefined;
  const spec = data?.spec;
  return typeof spec === 'object' && spec !== null && !Array.isArray(spec) ? (spec as Json) : undefined;
}

/**
 * The SidecarSet as the revision recorded it: the five recorded fields from the revision (a `null` one
 * absent), the rest of the current set kept (OpenKruise's strategic merge replaces the whole spec, but
 * injection reads only these fields), `status.latestRevision` the revision's name (written on the pod).
 * Undefined when the revision holds no spec.
 */
export function historySidecarSet(
  set: ReadonlySidecarSet,
  revision: DeepReadonly<ControllerRevision>,
): SidecarSet | undefined {
  const recorded = recordedSpec(revision);
  if (recorded === undefined) {
    return undefined;
  }
  const spec: Json = { ...(structuredClone(set.spec) as Json) };
  for (const field of REVISION_SPEC_FIELDS) {
    const value = recorded[field];
    if (value === null || value === undefined) {
      Reflect.deleteProperty(spec, field);
    } else {
      spec[field] = structuredClone(value);
    }
  }
  return {
    ...(structuredClone(set) as SidecarSet),
    spec: spec as SidecarSet['spec'],
    status: { ...structuredClone(set.status), latestRevision: revision.metadata?.name ?? '' } as SidecarSet['status'],
  };
}
