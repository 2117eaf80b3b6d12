/**
 * Decoding the in-place update annotations as Go's encoding/json decodes them into OpenKruise's
 * structs: unknown fields ignored, `null` leaving the zero value, a value of the wrong JSON type
 * failing the whole document, times and quantities parsed (and normalised) by their own decoders.
 */
import { canonicalQuantity, canonicalTime } from '@kruise-ts/revision';
import { z } from 'zod';

import type { InPlaceUpdateState } from './state.ts';
import type { ContainerRefMetadata, ContainerResources } from './update-spec.ts';

/** A Go string field: null and absent read as "". */
export const goString = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** A Go bool field: null and absent read as false. */
export const goBool = z
  .boolean()
  .nullish()
  .transform((value) => value ?? false);

/** A meta/v1 Time: RFC 3339 text, normalised to UTC seconds; null/absent is the zero time (null). */
export const goTimeSchema = z
  .string()
  .nullish()
  .transform((value, context) => {
    if (value === null || value === undefined) {
      return null;
    }
    try {
      return canonicalTime(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      return z.NEVER;
    }
  });

const quantitySchema = z.union([z.string(), z.number()]).transform((value, context) => {
  try {
    return canonicalQuantity(value);
  } catch (error) {
    context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
    return z.NEVER;
  }
});

/** A Go map[string]string; null values read as "". */
export const goStringMap = z.record(z.string(), goString).nullish();

const resourceList = z.record(z.string(), quantitySchema).nullish();

/** core/v1 ResourceRequirements, limits and requests only. */
export const resourcesSchema = z
  .looseObject({ limits: resourceList, requests: resourceList })
  .nullish()
  .transform((value): ContainerResources => ({
    ...(value?.limits === null || value?.limits === undefined ? {} : { limits: value.limits }),
    ...(value?.requests === null || value?.requests === undefined ? {} : { requests: value.requests }),
  }));

/** meta/v1 ObjectMeta, labels and annotations only. */
export const objectMetaSchema = z
  .looseObject({ labels: goStringMap, annotations: goStringMap })
  .nullish()
  .transform((value): ContainerRefMetadata => ({
    ...(value?.labels === null || value?.labels === undefined ? {} : { labels: value.labels }),
    ...(value?.annotations === null || value?.annotations === undefined ? {} : { annotations: value.annotations }),
  }));

const containerStatusSchema = z
  .looseObject({ imageID: goString })
  .nullish()
  .transform((value) =>
    value === null || value === undefined || value.imageID === '' ? {} : { imageID: value.imageID },
  );

const batchSchema = z
  .looseObject({ timestamp: goTimeSchema, containers: z.array(goString).nullish() })
  .nullish()
  .transform((value) => ({ timestamp: value?.timestamp ?? null, containers: value?.containers ?? null }));

const stateSchema = z
  .looseObject({
    revision: goString,
    updateTimestamp: goTimeSchema,
    lastContainerStatuses: z.record(z.string(), containerStatusSchema).nullish(),
    updateEnvFromMetadata: goBool,
    updateResources: goBool,
    updateImages: goBool,
    nextContainerImages: goStringMap,
    nextContainerRefMetadata: z.record(z.string(), objectMetaSchema).nullish(),
    nextContainerResources: z.record(z.string(), resourcesSchema).nullish(),
    preCheckBeforeNext: z
      .looseObject({ containersRequiredReady: z.array(goString).nullish() })
      .nullish()
      .transform((value) =>
        value === null || value === undefined
          ? undefined
          : value.containersRequiredReady
            ? { containersRequiredReady: value.containersRequiredReady }
            : {},
      ),
    containerBatchesRecord: z.array(batchSchema).nullish(),
  })
  .transform((value): InPlaceUpdateState => ({
    revision: value.revision,
    updateTimestamp: value.updateTimestamp,
    lastContainerStatuses: value.lastContainerStatuses ?? null,
    ...(value.updateEnvFromMetadata ? { updateEnvFromMetadata: true } : {}),
    ...(value.updateResources ? { updateResources: true } : {}),
    ...(value.updateImages ? { updateImages: true } : {}),
    ...(value.nextContainerImages ? { nextContainerImages: value.nextContainerImages } : {}),
    ...(value.nextContainerRefMetadata ? { nextContainerRefMetadata: value.nextContainerRefMetadata } : {}),
    ...(value.nextContainerResources ? { nextContainerResources: value.nextContainerResources } : {}),
    ...(value.preCheckBeforeNext ? { preCheckBeforeNext: value.preCheckBeforeNext } : {}),
    ...(value.containerBatchesRecord ? { containerBatchesRecord: value.containerBatchesRecord } : {}),
  }));

/** Parses JSON text with `schema`; returns the value or the error message. */
export function parseJsonWith<T>(text: string, schema: z.ZodType<T>): T | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const result = schema.safeParse(json);
  return result.success ? result.data : z.prettifyError(result.error);
}

/** The state in an annotation's text, or the reason Go could not decode it. */
export function parseInPlaceUpdateState(text: string): InPlaceUpdateState | string {
  // Go decodes the JSON `null` into the zero struct without an error.
  return parseJsonWith(
    text,
    z.preprocess((value) => value ?? {}, stateSchema),
  );
}
