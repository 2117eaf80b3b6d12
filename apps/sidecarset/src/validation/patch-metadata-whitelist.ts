/**
 * OpenKruise's whitelist of the pod annotations a SidecarSet may patch (sidecarcontrol
 * ValidateSidecarSetPatchMetadataWhitelist): `spec.patchPodMetadata` can write any annotation of every
 * pod it selects, so its keys must match an expression of the `SidecarSet_PatchPodMetadata_WhiteList`
 * entry of the `kruise-configuration` ConfigMap in the controllers' namespace (OpenKruise's
 * kruise-system, kruise-ts's release namespace). Without that entry, or without an expression for this
 * SidecarSet, it is refused unless the SidecarSetPatchPodMetadataDefaultsAllowed gate is on; a key no
 * expression matches is refused whatever the gate.
 */
import { labelSelectorSchema } from '@kruise-ts/api';
import type { SidecarSet } from '@kruise-ts/api';
import { matchesLabelSelector } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

/** OpenKruise's ConfigMap name (configuration.KruiseConfigurationName). */
export const KRUISE_CONFIGURATION_NAME = 'kruise-configuration';
/** Its key of the whitelist (configuration.SidecarSetPatchPodMetadataWhiteListKey). */
export const PATCH_POD_METADATA_WHITELIST_KEY = 'SidecarSet_PatchPodMetadata_WhiteList';

/** The entry's JSON, as Go's json.Unmarshal reads it (unknown fields ignored, null lists empty). */
const whitelistSchema = z.looseObject({
  rules: z
    .array(
      z.looseObject({
        // Rules without a selector apply to every SidecarSet.
        selector: labelSelectorSchema.nullish(),
        // Regular expressions, matched anywhere in the key (Go's MatchString).
        allowedAnnotationKeyExprs: z.array(z.string()).nullish(),
      }),
    )
    .nullish(),
});

/** The ConfigMap's data, undefined when there is no ConfigMap. */
export type KruiseConfiguration = Readonly<Record<string, string>> | undefined;

function compile(expression: string): RegExp | string {
  try {
    return new RegExp(expression);
  } catch (error) {
    return `error parsing regexp: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function parseWhitelist(text: string): z.output<typeof whitelistSchema> | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return `${PATCH_POD_METADATA_WHITELIST_KEY} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  const parsed = whitelistSchema.safeParse(json);
  return parsed.success
    ? parsed.data
    : `${PATCH_POD_METADATA_WHITELIST_KEY} cannot be read: ${z.prettifyError(parsed.error)}`;
}

/** The expressions of the rules that apply to the SidecarSet (selector on its labels), or why the whitelist cannot be read. */
function expressionsFor(set: DeepReadonly<SidecarSet>, text: string): RegExp[] | string {
  const whitelist = parseWhitelist(text);
  if (typeof whitelist === 'string') {
    return whitelist;
  }
  const rules = (whitelist.rules ?? []).filter(
    (rule) => rule.selector == null || matchesLabelSelector(rule.selector, set.metadata.labels),
  );
  const expressions: RegExp[] = [];
  for (const expression of rules.flatMap((rule) => rule.allowedAnnotationKeyExprs ?? [])) {
    const compiled = compile(expression);
    if (typeof compiled === 'string') {
      return compiled;
    }
    expressions.push(compiled);
  }
  return expressions;
}

/** The first annotation key of the patches that no expression matches. */
function firstRefusedKey(set: DeepReadonly<SidecarSet>, expressions: readonly RegExp[]): string | undefined {
  const keys = (set.spec.patchPodMetadata ?? []).flatMap((patch) => Object.keys(patch.annotations ?? {}));
  return keys.find((key) => !expressions.some((expression) => expression.test(key)));
}

/**
 * Why the SidecarSet's patchPodMetadata is refused (OpenKruise's messages), or undefined when it is
 * allowed. `defaultsAllowed` is the SidecarSetPatchPodMetadataDefaultsAllowed gate.
 */
export function patchMetadataWhitelistProblem(
  set: DeepReadonly<SidecarSet>,
  configuration: KruiseConfiguration,
  defaultsAllowed: boolean,
): string | undefined {
  if ((set.spec.patchPodMetadata ?? []).length === 0) {
    return undefined;
  }
  const text = configuration?.[PATCH_POD_METADATA_WHITELIST_KEY];
  if (text === undefined) {
    return defaultsAllowed ? undefined : 'SidecarSet patch metadata whitelist not found';
  }
  const expressions = expressionsFor(set, text);
  if (typeof expressions === 'string') {
    return expressions;
  }
  if (expressions.length === 0) {
    return defaultsAllowed ? undefined : 'sidecarSet patch metadata annotation is not allowed';
  }
  const refused = firstRefusedKey(set, expressions);
  return refused === undefined ? undefined : `sidecarSet patch metadata annotation(${refused}) is not allowed`;
}
