/**
 * The hashes of a SidecarSet's sidecars, written on injected pods (`kruise.io/sidecarset-hash` and
 * `-hash-without-image`) and compared by the upgrade: SafeEncodeString(hex(sha256(J))), where J is
 * the JSON of `{"containers": [...]}` (plus `"initContainers"` when one is a native sidecar), as
 * OpenKruise's webhook computes it (§B.4).
 *
 * Not yet byte-identical to OpenKruise: J here is Go-style JSON with sorted keys, where OpenKruise
 * encodes typed structs in their field order (and hashes the containers after its webhook's core
 * container defaults). The hash is only ever compared with hashes this code computed, so injection
 * and upgrade agree; pods injected by OpenKruise are seen as outdated and upgraded once.
 */
import { createHash } from 'node:crypto';

import type { SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { marshalGoJson, safeEncodeString } from '@kruise-ts/revision';

type Sidecars = DeepReadonly<SidecarSet['spec']>;

function hashOf(value: unknown): string {
  return safeEncodeString(createHash('sha256').update(marshalGoJson(value)).digest('hex'));
}

function hashedLists(spec: Sidecars, withoutImage: boolean): Record<string, unknown> {
  const strip = (containers: readonly { readonly image?: string | undefined }[] | undefined): unknown[] =>
    (containers ?? []).map((container) => (withoutImage ? { ...container, image: '' } : container));
  const initContainers = spec.initContainers ?? [];
  const nativeSidecar = initContainers.some((container) => container.restartPolicy === 'Always');
  return { containers: strip(spec.containers), ...(nativeSidecar ? { initContainers: strip(initContainers) } : {}) };
}

/** `kruise.io/sidecarset-hash` of a SidecarSet's spec. */
export function sidecarSetHash(spec: Sidecars): string {
  return hashOf(hashedLists(spec, false));
}

/** `kruise.io/sidecarset-hash-without-image`: the same with every image left out. */
export function sidecarSetHashWithoutImage(spec: Sidecars): string {
  return hashOf(hashedLists(spec, true));
}
