/**
 * The volumeClaimTemplates hash OpenKruise v1.9 writes into the `kruise.io/cloneset-volumeclaimtemplate-hash`
 * annotation of every CloneSet revision (pkg/util/volumeclaimtemplate): with the
 * RecreatePodWhenChangeVCTInCloneSetGate gate, two revisions with different hashes are never updated
 * in place. Each template is reduced to `{metadata:{name}, spec}`, the list is sorted by name, marshalled
 * with encoding/json from the typed structs (struct field order, not sorted keys) and hashed with
 * hashutil.DeepHashObject over FNV-1a.
 */
import type { PersistentVolumeClaim } from '@kruise-ts/api';
import { VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION as API_VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { deepHashJsonBytes } from './go-hash.ts';
import { compareGoStrings, goQuote } from './go-json.ts';
import { parseGoType } from './go-struct-table.ts';
import { POD_TEMPLATE_STRUCTS } from './pod-template-fields.generated.ts';
import { encodeTyped } from './typed-round-trip.ts';
import { marshalTypedGoJson } from './typed-marshal.ts';

/** ControllerRevision annotation: {@link volumeClaimTemplatesHash} of the workload's volumeClaimTemplates. */
export const VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION = API_VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION;

const PVC_SPEC_TYPE = parseGoType('PersistentVolumeClaimSpec');

interface Entry {
  readonly name: string;
  readonly json: string;
}

function entryOf(template: DeepReadonly<PersistentVolumeClaim>, index: number): Entry {
  const name = template.metadata?.name ?? '';
  const spec = encodeTyped(template.spec, PVC_SPEC_TYPE, {
    table: POD_TEMPLATE_STRUCTS,
    path: `volumeClaimTemplates[${String(index)}].spec`,
  });
  // ObjectMeta with only Name set: name is omitempty, creationTimestamp (a struct) is always written.
  const metadata = name === '' ? '{"creationTimestamp":null}' : `{"name":${goQuote(name)},"creationTimestamp":null}`;
  // PersistentVolumeClaimStatus is empty: every field is omitempty.
  return {
    name,
    json: `{"metadata":${metadata},"spec":${marshalTypedGoJson(spec, PVC_SPEC_TYPE, POD_TEMPLATE_STRUCTS)},"status":{}}`,
  };
}

/**
 * The annotation value for a workload's volumeClaimTemplates: `""` when there are none, otherwise the
 * decimal FNV-1a hash, e.g. `"2940389453"`. Only names and specs count (labels or annotations of a
 * template do not change it); the order of the templates does not either. Throws TemplateDecodeError
 * where Go could not decode a spec.
 */
export function volumeClaimTemplatesHash(templates: readonly DeepReadonly<PersistentVolumeClaim>[]): string {
  if (templates.length === 0) {
    return '';
  }
  // Array.prototype.sort is stable, as Go's sort.SliceStable.
  const entries = templates.map(entryOf).sort((a, b) => compareGoStrings(a.name, b.name));
  return String(deepHashJsonBytes(`[${entries.map((entry) => entry.json).join(',')}]`));
}
