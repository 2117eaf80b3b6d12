/**
 * The hashes of a SidecarSet's sidecars, written on injected pods (`kruise.io/sidecarset-hash` and
 * `-hash-without-image`) and compared by the upgrade, byte for byte as OpenKruise computes them
 * (pkg/control/sidecarcontrol hash.go, §B.4): SafeEncodeString(hex(sha256(J))), where J is Go's
 * `json.Marshal` of the map `{"containers": [...]}` (plus `"initContainers"` when one of them is a
 * native sidecar), the containers typed as SidecarContainer (fields in declaration order) after the
 * webhook's core defaults (container-defaults.ts). Checked against Go in test/integration/hash-golden.test.ts.
 */
import { createHash } from 'node:crypto';

import type { SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { marshalTypedJson, safeEncodeString } from '@kruise-ts/revision';

import { defaultSidecarContainer } from './container-defaults.ts';
import { SIDECAR_CONTAINER_STRUCTS } from './sidecar-container-fields.ts';

type Sidecars = DeepReadonly<SidecarSet['spec']>;
type Json = Record<string, unknown>;

/** The list as Go holds it after the webhook's defaults: nil stays nil (`null` in J). */
function defaulted(containers: readonly unknown[] | undefined, withoutImage: boolean): Json[] | undefined {
  return containers?.map((container) => {
    const withDefaults = defaultSidecarContainer(structuredClone(container) as Json);
    return withoutImage ? { ...withDefaults, image: '' } : withDefaults;
  });
}

/** J: the map's keys in Go's order ("containers" before "initContainers"). */
function encodedSidecars(spec: Sidecars, withoutImage: boolean): string {
  const containers = marshalTypedJson(
    defaulted(spec.containers, withoutImage),
    '[]SidecarContainer',
    SIDECAR_CONTAINER_STRUCTS,
  );
  const initContainers = spec.initContainers ?? [];
  if (!initContainers.some((container) => container.restartPolicy === 'Always')) {
    return `{"containers":${containers}}`;
  }
  return `{"containers":${containers},"initContainers":${marshalTypedJson(defaulted(initContainers, withoutImage), '[]SidecarContainer', SIDECAR_CONTAINER_STRUCTS)}}`;
}

function hashOf(encoded: string): string {
  return safeEncodeString(createHash('sha256').update(encoded).digest('hex'));
}

/**
 * Hashes by spec object: a cached SidecarSet is immutable and replaced on every change, so the webhook
 * and the status calculation hash it once instead of once per pod (about 1 ms each time).
 */
const hashes = new WeakMap<object, { withImage?: string; withoutImage?: string }>();

function memoized(spec: Sidecars, which: 'withImage' | 'withoutImage'): string {
  let entry = hashes.get(spec);
  if (entry === undefined) {
    entry = {};
    hashes.set(spec, entry);
  }
  entry[which] ??= hashOf(encodedSidecars(spec, which === 'withoutImage'));
  return entry[which];
}

/** `kruise.io/sidecarset-hash` of a SidecarSet's spec. */
export function sidecarSetHash(spec: Sidecars): string {
  return memoized(spec, 'withImage');
}

/** `kruise.io/sidecarset-hash-without-image`: the same with every image left out. */
export function sidecarSetHashWithoutImage(spec: Sidecars): string {
  return memoized(spec, 'withoutImage');
}

/** J itself, for the golden test. */
export function sidecarSetHashInput(spec: Sidecars): string {
  return encodedSidecars(spec, false);
}
