/**
 * Env vars that read the pod's labels or annotations (`valueFrom.fieldRef.fieldPath:
 * metadata.labels['key']`) and their hash, as OpenKruise's pkg/util/containermeta computes it. The
 * kubelet resolves such values only when a container starts, so an in-place update that changes them
 * must restart the container; kruise-daemon reports the hash each running container started with in
 * the runtime-containers-meta annotation, and the update is complete when every container reports the
 * hash of the pod's current labels and annotations.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { compareGoStrings, deepHashJsonBytes, goQuote } from '@kruise-ts/revision';

type Container = DeepReadonly<NonNullable<NonNullable<Pod['spec']>['containers']>[number]>;
type EnvVar = NonNullable<Container['env']>[number];

/** The metadata a fieldRef can read in place: labels or annotations. */
export type MetadataField = 'metadata.labels' | 'metadata.annotations';

/** Env vars OpenKruise's SidecarSet manages itself; they never trigger a restart. */
const EXCLUDED_ENVS: ReadonlySet<string> = new Set(['SIDECARSET_VERSION', 'SIDECARSET_VERSION_ALT']);

/**
 * Kubernetes' fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['app']` → `['metadata.labels', 'app']`;
 * undefined for a path without a subscript.
 */
export function splitSubscriptedPath(fieldPath: string): readonly [string, string] | undefined {
  if (!fieldPath.endsWith("']")) {
    return undefined;
  }
  const body = fieldPath.slice(0, -2);
  const open = body.indexOf("['");
  if (open <= 0) {
    return undefined;
  }
  return [body.slice(0, open), body.slice(open + 2)];
}

/** The (field, key) an env var reads, when it is one of the metadata references OpenKruise tracks. */
function metadataReference(env: EnvVar): readonly [string, string] | undefined {
  const fieldPath = env.valueFrom?.fieldRef?.fieldPath;
  if ((env.value ?? '') !== '' || fieldPath === undefined || EXCLUDED_ENVS.has(env.name)) {
    return undefined;
  }
  return splitSubscriptedPath(fieldPath);
}

/** Whether the container has an env var reading `field['key']` (`IsContainerReferenceToMeta`). */
export function containerReadsMetadata(container: Container, field: MetadataField, key: string): boolean {
  return (container.env ?? []).some((env) => {
    const reference = metadataReference(env);
    return reference !== undefined && reference[0] === field && reference[1] === key;
  });
}

/** Whether the container has any env var that reads a label or annotation. */
export function hasMetadataEnv(container: Container): boolean {
  return (container.env ?? []).some((env) => {
    const field = metadataReference(env)?.[0];
    return field === 'metadata.labels' || field === 'metadata.annotations';
  });
}

/** The pod metadata env values are resolved from. */
export interface MetadataSource {
  readonly labels?: Readonly<Record<string, string>> | undefined;
  readonly annotations?: Readonly<Record<string, string>> | undefined;
}

function ownValue(map: Readonly<Record<string, string>> | undefined, key: string): string {
  return map !== undefined && Object.hasOwn(map, key) ? (map[key] ?? '') : '';
}

/** Go's `json.Marshal([]v1.EnvVar)` for name/value pairs: `value` is omitempty; nil slice is `null`. */
function envJson(envs: readonly { readonly name: string; readonly value: string }[]): string {
  if (envs.length === 0) {
    return 'null';
  }
  return `[${envs.map((env) => (env.value === '' ? `{"name":${goQuote(env.name)}}` : `{"name":${goQuote(env.name)},"value":${goQuote(env.value)}}`)).join(',')}]`;
}

/**
 * The env-from-metadata hash of the container with its label/annotation env vars resolved from
 * `metadata` (`GetExpectHash`): the list of `{name, value}` sorted by name, Go's JSON of it, hashed
 * with FNV-1a over go-spew's rendering. A missing label reads as "" (Go's map lookup); a container
 * without such env vars hashes the JSON `null`, as kruise-daemon reports for it.
 */
export function envFromMetadataHash(container: Container, metadata: MetadataSource): number {
  const envs: { name: string; value: string }[] = [];
  for (const env of container.env ?? []) {
    const reference = metadataReference(env);
    if (reference?.[0] === 'metadata.labels') {
      envs.push({ name: env.name, value: ownValue(metadata.labels, reference[1]) });
    } else if (reference?.[0] === 'metadata.annotations') {
      envs.push({ name: env.name, value: ownValue(metadata.annotations, reference[1]) });
    }
  }
  // Array.prototype.sort is stable, as sort.SliceStable.
  envs.sort((a, b) => compareGoStrings(a.name, b.name));
  return deepHashJsonBytes(envJson(envs));
}
