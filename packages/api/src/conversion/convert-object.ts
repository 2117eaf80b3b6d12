/**
 * One object to another version of its kind: what a conversion webhook answers for each object of a
 * ConversionReview. Pure: the input is never changed; the answer is a new object.
 */
import { APPS_KRUISE_IO_GROUP } from '../apps/v1alpha1/group-version.ts';
import { isJsonObject, jsonShapeProblem } from './json-path.ts';
import type { JsonObject } from './json-path.ts';
import { sidecarSetToV1alpha1, sidecarSetToV1beta1 } from './sidecarset-conversion.ts';
import { statefulSetToV1alpha1, statefulSetToV1beta1 } from './statefulset-conversion.ts';

/**
 * The outcome for one object; `ignoredRecordEntries` counts the entries of its conversion record that
 * were not restored for being unreadable, not restorable, invalid or stale (a webhook's metric).
 */
export type ConversionResult =
  | { readonly ok: true; readonly object: JsonObject; readonly ignoredRecordEntries: number }
  | { readonly ok: false; readonly message: string };

/** Converts a copy the caller owns in place; returns the record entries it ignored. */
type Converter = (object: JsonObject) => number;

/**
 * The deepest object converted. Far deeper than any Kubernetes object of these kinds (a pod template
 * is about 12 levels), and well below where Node's recursive copies and comparisons exhaust the stack
 * (structuredClone about 1,600 levels of objects, isDeepStrictEqual about 900, JSON.stringify about
 * 4,400): a deeper object is refused by name instead of thrown on.
 */
export const MAX_OBJECT_DEPTH = 512;

/** Converters into a version, by kind (apps.kruise.io); a kind listed converts between exactly these versions. */
const CONVERTERS: Readonly<Record<string, Readonly<Record<string, Converter>>>> = {
  StatefulSet: { v1alpha1: statefulSetToV1alpha1, v1beta1: statefulSetToV1beta1 },
  SidecarSet: { v1alpha1: sidecarSetToV1alpha1, v1beta1: sidecarSetToV1beta1 },
  // Same schema in both versions (the CRD converts with None); here for a webhook asked anyway.
  BroadcastJob: { v1alpha1: () => 0, v1beta1: () => 0 },
};

/** `record[key]` when it is the record's own (a kind or version named `constructor` finds nothing). */
function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The kind and the two versions of a conversion, or why it is not one of ours. */
function conversionOf(
  object: JsonObject,
  desiredAPIVersion: string,
): { readonly kind: string; readonly version: string; readonly desiredVersion: string } | string {
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    return 'an object to convert has no apiVersion or kind';
  }
  const [group, version = ''] = apiVersion.split('/');
  const [desiredGroup, desiredVersion = ''] = desiredAPIVersion.split('/');
  if (group !== APPS_KRUISE_IO_GROUP || desiredGroup !== APPS_KRUISE_IO_GROUP) {
    return `cannot convert ${apiVersion} ${kind} to ${desiredAPIVersion}: only ${APPS_KRUISE_IO_GROUP} versions are converted here`;
  }
  return { kind, version, desiredVersion };
}

/** `object` as `desiredAPIVersion` (`apps.kruise.io/v1alpha1` or `apps.kruise.io/v1beta1`). */
export function convertObject(object: unknown, desiredAPIVersion: string): ConversionResult {
  if (!isJsonObject(object)) {
    return { ok: false, message: 'an object to convert is not a JSON object' };
  }
  const conversion = conversionOf(object, desiredAPIVersion);
  if (typeof conversion === 'string') {
    return { ok: false, message: conversion };
  }
  const converters = own(CONVERTERS, conversion.kind);
  const into = own(converters, conversion.desiredVersion);
  if (into === undefined || own(converters, conversion.version) === undefined) {
    return {
      ok: false,
      message: `cannot convert ${conversion.kind} from ${String(object['apiVersion'])} to ${desiredAPIVersion}: no such version of the kind`,
    };
  }
  const tooDeep = jsonShapeProblem(object, { maxDepth: MAX_OBJECT_DEPTH, refusePrototypeKeys: false });
  if (tooDeep !== undefined) {
    return { ok: false, message: `cannot convert ${conversion.kind}: the object is ${tooDeep}` };
  }
  const converted = structuredClone(object);
  const ignoredRecordEntries = conversion.version === conversion.desiredVersion ? 0 : into(converted);
  converted['apiVersion'] = desiredAPIVersion;
  return { ok: true, object: converted, ignoredRecordEntries };
}
