/**
 * The metadata part of an in-place update: label/annotation changes that containers read through env
 * vars (InPlaceUpdateEnvFromMetadata) become per-container changes that restart those containers; the
 * remaining label/annotation changes become a patch of the pod's metadata.
 */
import type { PodTemplateSpec } from '@kruise-ts/api';

import { containerReadsMetadata } from './env-from-metadata.ts';
import type { DiffOperation } from './json-diff.ts';
import type { ContainerRefMetadata, MetadataPatch } from './update-spec.ts';

/** Input of {@link envFromMetadataChanges}. */
export interface MetadataChangesInput {
  readonly oldTemplate: PodTemplateSpec;
  readonly newTemplate: PodTemplateSpec;
  /** The diff operations under `metadata`. */
  readonly operations: readonly DiffOperation[];
  readonly envFromMetadata: boolean;
}

/** The metadata fields of an UpdateSpec. */
export interface MetadataChanges {
  readonly containerRefMetadata: Record<string, ContainerRefMetadata>;
  readonly updateEnvFromMetadata: boolean;
  readonly metadataPatch: MetadataPatch | undefined;
}

type Labels = Readonly<Record<string, string>> | undefined;
type MetadataMap = 'labels' | 'annotations';

/** A key-level change of labels/annotations that env vars may read: `add`/`replace` of `metadata.<map>.<key>`. */
function keyChange(
  operation: DiffOperation,
): { readonly map: MetadataMap; readonly key: string; readonly value: string } | undefined {
  const [, map, key] = operation.path;
  if (
    operation.op === 'remove' ||
    operation.path.length !== 3 ||
    (map !== 'labels' && map !== 'annotations') ||
    typeof key !== 'string' ||
    typeof operation.value !== 'string'
  ) {
    return undefined;
  }
  return { map, key, value: operation.value };
}

function dropKey(template: PodTemplateSpec, change: { readonly map: MetadataMap; readonly key: string }): void {
  const map = template.metadata?.[change.map];
  if (map !== undefined) {
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the key is data: a label or annotation name
    delete map[change.key];
  }
}

/**
 * Moves env-read keys out of the templates' metadata into per-container changes, as OpenKruise does:
 * every container of the new template whose env reads the key gets it. The templates are copies and
 * are changed here. Only key-level adds and replaces count: when a template had no annotations at all,
 * the new map arrives as one `add` and no container is restarted for it (as upstream).
 */
function extractEnvKeys(input: MetadataChangesInput): Record<string, ContainerRefMetadata> {
  const refs: Record<string, ContainerRefMetadata> = {};
  const changes = input.operations.flatMap((operation) => keyChange(operation) ?? []);
  for (const change of changes) {
    const readers = (input.newTemplate.spec?.containers ?? []).filter((container) =>
      containerReadsMetadata(container, `metadata.${change.map}`, change.key),
    );
    for (const container of readers) {
      const ref = refs[container.name] ?? {};
      refs[container.name] = { ...ref, [change.map]: { ...ref[change.map], [change.key]: change.value } };
    }
    if (readers.length > 0) {
      dropKey(input.oldTemplate, change);
      dropKey(input.newTemplate, change);
    }
  }
  return refs;
}

/** The strategic-merge patch from one map to the other: changed and new keys, and null for removed ones. */
function mapPatch(before: Labels, after: Labels): Record<string, string | null> | undefined {
  const old = before ?? {};
  const next = after ?? {};
  const patch: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(next)) {
    if (!Object.hasOwn(old, key) || old[key] !== value) {
      patch[key] = value;
    }
  }
  for (const key of Object.keys(old).filter((name) => !Object.hasOwn(next, name))) {
    patch[key] = null;
  }
  return Object.keys(patch).length === 0 ? undefined : patch;
}

/**
 * Splits the metadata changes between the two templates. Only labels and annotations reach the
 * patch; changes of other template metadata (finalizers, ownerReferences, ...) are in place but not
 * applied to pods (see the package README).
 */
export function envFromMetadataChanges(input: MetadataChangesInput): MetadataChanges {
  const containerRefMetadata = input.envFromMetadata ? extractEnvKeys(input) : {};
  const labels = mapPatch(input.oldTemplate.metadata?.labels, input.newTemplate.metadata?.labels);
  const annotations = mapPatch(input.oldTemplate.metadata?.annotations, input.newTemplate.metadata?.annotations);
  const metadataPatch: MetadataPatch | undefined =
    labels === undefined && annotations === undefined
      ? undefined
      : { ...(labels === undefined ? {} : { labels }), ...(annotations === undefined ? {} : { annotations }) };
  return { containerRefMetadata, updateEnvFromMetadata: Object.keys(containerRefMetadata).length > 0, metadataPatch };
}
