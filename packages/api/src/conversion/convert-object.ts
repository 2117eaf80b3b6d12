/**
 * One object to another version of its kind: what a conversion webhook answers for each object of a
 * ConversionReview. Pure: the input is never changed; the answer is a new object.
 */
import { APPS_KRUISE_IO_GROUP } from '../apps/v1alpha1/group-version.ts';
import { sidecarSetToV1alpha1, sidecarSetToV1beta1 } from './sidecarset-conversion.ts';
import { statefulSetToV1alpha1, statefulSetToV1beta1 } from './statefulset-conversion.ts';
import type { JsonObject } from './conversion-record.ts';

/** The outcome for one object. */
export type ConversionResult = { readonly ok: true; readonly object: JsonObject } | { readonly ok: false; readonly message: string };

type Converter = (object: JsonObject) => void;

/** Converters into a version, by kind (apps.kruise.io); a kind listed converts between exactly these versions. */
const CONVERTERS: Readonly<Record<string, Readonly<Record<string, Converter>>>> = {
  StatefulSet: { v1alpha1: statefulSetToV1alpha1, v1beta1: statefulSetToV1beta1 },
  SidecarSet: { v1alpha1: sidecarSetToV1alpha1, v1beta1: sidecarSetToV1beta1 },
  // Same schema in both versions (the CRD converts with None); here for a webhook asked anyway.
  BroadcastJob: { v1alpha1: () => undefined, v1beta1: () => undefined },
};

/** The kinds this package converts (for the webhook's registration and tests). */
export const CONVERTIBLE_KINDS: readonly string[] = Object.keys(CONVERTERS);

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The kind and the two versions of a conversion, or why it is not one of ours. */
function conversionOf(object: JsonObject, desiredAPIVersion: string): { readonly kind: string; readonly version: string; readonly desiredVersion: string } | string {
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return 'an object to convert has no apiVersion or kind';
  const [group, version = ''] = apiVersion.split('/');
  const [desiredGroup, desiredVersion = ''] = desiredAPIVersion.split('/');
  if (group !== APPS_KRUISE_IO_GROUP || desiredGroup !== APPS_KRUISE_IO_GROUP) {
    return `cannot convert ${apiVersion} ${kind} to ${desiredAPIVersion}: only ${APPS_KRUISE_IO_GROUP} versions are converted here`;
  }
  return { kind, version, desiredVersion };
}

/** `object` as `desiredAPIVersion` (`apps.kruise.io/v1alpha1` or `apps.kruise.io/v1beta1`). */
export function convertObject(object: unknown, desiredAPIVersion: string): ConversionResult {
  if (!isObject(object)) return { ok: false, message: 'an object to convert is not a JSON object' };
  const conversion = conversionOf(object, desiredAPIVersion);
  if (typeof conversion === 'string') return { ok: false, message: conversion };
  const converters = CONVERTERS[conversion.kind];
  const into = converters?.[conversion.desiredVersion];
  if (into === undefined || converters?.[conversion.version] === undefined) {
    return { ok: false, message: `cannot convert ${conversion.kind} from ${String(object['apiVersion'])} to ${desiredAPIVersion}: no such version of the kind` };
  }
  const converted = structuredClone(object);
  if (conversion.version !== conversion.desiredVersion) into(converted);
  converted['apiVersion'] = desiredAPIVersion;
  return { ok: true, object: converted };
}
