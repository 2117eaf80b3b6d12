/**
 * The `apps.kruise.io/runtime-containers-meta` annotation kruise-daemon (OpenKruise's node agent)
 * keeps on pods: per running container its id, restart count and hashes. Completion of an
 * env-from-metadata update is read from it (OpenKruise's `RuntimeContainerMetaSet`).
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { goQuote } from '@kruise-ts/revision';
import { z } from 'zod';

import { annotation, RUNTIME_CONTAINERS_META_ANNOTATION } from './annotations.ts';
import { members } from './go-encoding.ts';
import { goString, parseJsonWith } from './state-schema.ts';

/** One runtime container as kruise-daemon reports it. */
export interface RuntimeContainerMeta {
  readonly name: string;
  readonly containerID: string;
  readonly restartCount: number;
  readonly hashes: {
    /** The kubelet's hash of the container spec (not checked by kruise-ts; see the README). */
    readonly plainHash: number;
    /** The env-from-metadata hash of the env the container started with; 0 when unknown. */
    readonly extractedEnvFromMetadataHash: number;
  };
}

/** All runtime containers of a pod. */
export interface RuntimeContainerMetaSet {
  readonly containers: readonly RuntimeContainerMeta[];
}

const uint = z
  .number()
  .int()
  .nonnegative()
  .nullish()
  .transform((value) => value ?? 0);

const hashesSchema = z
  .looseObject({ plainHash: uint, extractedEnvFromMetadataHash: uint })
  .nullish()
  .transform((value) => value ?? { plainHash: 0, extractedEnvFromMetadataHash: 0 });

const metaSchema = z.preprocess(
  (value) => value ?? {},
  z.looseObject({
    name: goString,
    containerID: goString,
    restartCount: z
      .int32()
      .nullish()
      .transform((value) => value ?? 0),
    hashes: hashesSchema,
  }),
);

const metaSetSchema = z.preprocess(
  (value) => value ?? {},
  z
    .looseObject({ containers: z.array(metaSchema).nullish() })
    .transform((value): RuntimeContainerMetaSet => ({ containers: value.containers ?? [] })),
);

/** The annotation as read: absent, parsed or malformed. */
export type RuntimeMetaAnnotation =
  | { readonly kind: 'absent' }
  | { readonly kind: 'meta'; readonly meta: RuntimeContainerMetaSet }
  | { readonly kind: 'malformed'; readonly error: string };

/** Reads the pod's runtime-containers-meta annotation. */
export function runtimeContainerMeta(pod: DeepReadonly<Pod>): RuntimeMetaAnnotation {
  const text = annotation(pod, RUNTIME_CONTAINERS_META_ANNOTATION);
  if (text === undefined) {
    return { kind: 'absent' };
  }
  const parsed = parseJsonWith(text, metaSetSchema);
  return typeof parsed === 'string' ? { kind: 'malformed', error: parsed } : { kind: 'meta', meta: parsed };
}

/** The annotation text as kruise-daemon writes it (Go struct order; the env hash is omitempty). */
export function formatRuntimeContainerMeta(meta: RuntimeContainerMetaSet): string {
  const containers = meta.containers.map((container) =>
    members([
      ['name', goQuote(container.name)],
      ['containerID', goQuote(container.containerID)],
      ['restartCount', String(container.restartCount)],
      [
        'hashes',
        members([
          ['plainHash', String(container.hashes.plainHash)],
          [
            'extractedEnvFromMetadataHash',
            container.hashes.extractedEnvFromMetadataHash === 0
              ? undefined
              : String(container.hashes.extractedEnvFromMetadataHash),
          ],
        ]),
      ],
    ]),
  );
  return members([['containers', `[${containers.join(',')}]`]]);
}
