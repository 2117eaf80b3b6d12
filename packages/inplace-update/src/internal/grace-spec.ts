/**
 * The `apps.kruise.io/inplace-update-grace` annotation: the UpdateSpec waiting for the grace period to
 * end, as OpenKruise marshals its `UpdateSpec` struct (struct field order, omitempty, the metadata
 * patch as base64 bytes because it is a Go `[]byte`). OpenKruise can therefore finish a grace period
 * that kruise-ts started, and the other way round.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { goQuote, marshalGoJson } from '@kruise-ts/revision';
import { z } from 'zod';

import {
  annotationWithLegacy,
  INPLACE_UPDATE_GRACE_ANNOTATION,
  INPLACE_UPDATE_GRACE_ANNOTATION_LEGACY,
} from './annotations.ts';
import { goMap, hasEntries, members, objectMetaJson, resourceRequirementsJson } from './go-encoding.ts';
import { goBool, goString, objectMetaSchema, parseJsonWith, resourcesSchema } from './state-schema.ts';
import type { MetadataPatch, UpdateSpec } from './update-spec.ts';

/** The strategic-merge patch bytes OpenKruise stores for the template's metadata changes. */
function metadataPatchBytes(patch: MetadataPatch): string {
  return marshalGoJson({ metadata: patch });
}

/**
 * The grace annotation text for a spec, e.g.
 * `{"revision":"demo-2","containerImages":{"main":"nginx:1.27"},"metaDataPatch":"eyJtZXRhZGF0YSI6e319","graceSeconds":5}`.
 */
export function formatGraceSpec(spec: UpdateSpec): string {
  return members([
    ['revision', goQuote(spec.revision)],
    ['containerImages', hasEntries(spec.containerImages) ? marshalGoJson(spec.containerImages) : undefined],
    [
      'containerRefMetadata',
      hasEntries(spec.containerRefMetadata) ? goMap(spec.containerRefMetadata, objectMetaJson) : undefined,
    ],
    [
      'containerResources',
      hasEntries(spec.containerResources) ? goMap(spec.containerResources, resourceRequirementsJson) : undefined,
    ],
    [
      'metaDataPatch',
      spec.metadataPatch === undefined
        ? undefined
        : goQuote(Buffer.from(metadataPatchBytes(spec.metadataPatch), 'utf8').toString('base64')),
    ],
    ['updateEnvFromMetadata', spec.updateEnvFromMetadata ? 'true' : undefined],
    ['graceSeconds', spec.graceSeconds !== 0 ? String(spec.graceSeconds) : undefined],
  ]);
}

const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const patchMapSchema = z.record(z.string(), z.string().nullable()).nullish();
const metadataPatchSchema = z.looseObject({
  metadata: z.looseObject({ labels: patchMapSchema, annotations: patchMapSchema }).nullish(),
});

/** Decodes the base64 bytes of the metadata patch; only its labels and annotations are kept. */
function decodeMetadataPatch(base64: string, context: z.RefinementCtx): MetadataPatch | undefined {
  const parsed = STD_BASE64.test(base64)
    ? parseJsonWith(Buffer.from(base64, 'base64').toString('utf8'), metadataPatchSchema)
    : 'illegal base64 data';
  if (typeof parsed === 'string') {
    context.addIssue({ code: 'custom', message: `metaDataPatch: ${parsed}` });
    return z.NEVER;
  }
  const labels = parsed.metadata?.labels ?? undefined;
  const annotations = parsed.metadata?.annotations ?? undefined;
  return { ...(labels === undefined ? {} : { labels }), ...(annotations === undefined ? {} : { annotations }) };
}

const graceSpecSchema = z
  .looseObject({
    revision: goString,
    containerImages: z.record(z.string(), goString).nullish(),
    containerRefMetadata: z.record(z.string(), objectMetaSchema).nullish(),
    containerResources: z.record(z.string(), resourcesSchema).nullish(),
    metaDataPatch: z.string().nullish(),
    updateEnvFromMetadata: goBool,
    graceSeconds: z.int32().nullish(),
  })
  .transform((value, context): UpdateSpec => ({
    revision: value.revision,
    containerImages: value.containerImages ?? {},
    containerRefMetadata: value.containerRefMetadata ?? {},
    containerResources: value.containerResources ?? {},
    metadataPatch:
      value.metaDataPatch === null || value.metaDataPatch === undefined || value.metaDataPatch === ''
        ? undefined
        : decodeMetadataPatch(value.metaDataPatch, context),
    updateEnvFromMetadata: value.updateEnvFromMetadata,
    graceSeconds: value.graceSeconds ?? 0,
  }));

/** The spec in a grace annotation's text, or the reason it cannot be decoded. */
export function parseGraceSpec(text: string): UpdateSpec | string {
  return parseJsonWith(
    text,
    z.preprocess((value) => value ?? {}, graceSpecSchema),
  );
}

/** The grace annotation as read: absent, parsed, or malformed. */
export type GraceAnnotation =
  | { readonly kind: 'absent' }
  | { readonly kind: 'spec'; readonly spec: UpdateSpec }
  | { readonly kind: 'malformed'; readonly error: string };

/** Reads the pod's grace annotation (new key, then the legacy `inplace-update-grace`); empty reads as absent. */
export function graceAnnotation(pod: DeepReadonly<Pod>): GraceAnnotation {
  const text = annotationWithLegacy(pod, INPLACE_UPDATE_GRACE_ANNOTATION, INPLACE_UPDATE_GRACE_ANNOTATION_LEGACY);
  // OpenKruise's Refresh also skips an empty value.
  if (text === undefined || text === '') {
    return { kind: 'absent' };
  }
  const parsed = parseGraceSpec(text);
  return typeof parsed === 'string' ? { kind: 'malformed', error: parsed } : { kind: 'spec', spec: parsed };
}
