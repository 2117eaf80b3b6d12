/**
 * The in-place upgrade of one pod's sidecars (§B.8.4): only the images of the SidecarSet's
 * containers change (a HotUpgrade pair's idle member takes the new image and becomes the working one); the pod's hash record moves to the SidecarSet's hashes, the in-place state keeps
 * each changed container's imageID from before (so that completion can be seen), and patchPodMetadata
 * is applied again. One JSON patch, guarded by the pod's resourceVersion.
 */
import {
  SIDECARSET_HASH_ANNOTATION,
  SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION,
  SIDECARSET_INPLACE_UPDATE_STATE_ANNOTATION,
} from '@kruise-ts/api';
import type { Pod, SidecarSet } from '@kruise-ts/api';
import { createJsonPatch } from '@kruise-ts/webhook';
import type { DeepReadonly, JsonPatchOperation } from '@kruise-ts/controller-runtime';

import { sidecarSetHash, sidecarSetHashWithoutImage } from '../hash/sidecarset-hash.ts';
import { patchPodAnnotations } from '../injection/patch-pod-metadata.ts';
import { formatUpgradeSpecs, parseUpgradeSpecs, sidecarListOf } from '../injection/pod-hash-annotations.ts';
import { isHotUpgrade, pairUpgrade } from '../hotupgrade/hot-upgrade.ts';
import type { PairUpgrade } from '../hotupgrade/hot-upgrade.ts';
import { inPlaceStates } from './inplace-state.ts';

type ReadonlyPod = DeepReadonly<Pod>;

function goTime(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The pod's containers with the SidecarSet's images (a cold sidecar by its name, a HotUpgrade pair's
 * idle member); the names of those that changed and their imageIDs before.
 */
function upgradedContainers(
  pod: ReadonlyPod,
  set: DeepReadonly<SidecarSet>,
  pairs: PairUpgrade,
): { containers: NonNullable<Pod['spec']>['containers']; changed: Record<string, { imageID: string }> } {
  const cold = (set.spec.containers ?? []).filter((sidecar) => !isHotUpgrade(sidecar));
  const images = new Map([
    ...cold.map((sidecar): [string, string] => [sidecar.name, sidecar.image ?? '']),
    ...pairs.images,
  ]);
  const changed: Record<string, { imageID: string }> = {};
  const containers = (pod.spec?.containers ?? []).map((container) => {
    const image = images.get(container.name);
    if (image === undefined || image === container.image) {
      return structuredClone(container) as NonNullable<Pod['spec']>['containers'][number];
    }
    changed[container.name] = {
      imageID: pod.status?.containerStatuses?.find((status) => status.name === container.name)?.imageID ?? '',
    };
    return { ...(structuredClone(container) as NonNullable<Pod['spec']>['containers'][number]), image };
  });
  return { containers, changed };
}

function upgradedAnnotations(
  pod: ReadonlyPod,
  set: DeepReadonly<SidecarSet>,
  input: { readonly changed: Record<string, { imageID: string }>; readonly now: Date; readonly pairs: PairUpgrade },
): Record<string, string> {
  const name = set.metadata.name ?? '';
  const annotations = {
    ...patchPodAnnotations(pod.metadata?.annotations ?? {}, set.spec.patchPodMetadata ?? []),
    ...input.pairs.annotations,
  };
  const sidecarList = sidecarListOf(set);
  const updateTimestamp = goTime(input.now);
  const revision = set.status?.latestRevision;
  const hashes = parseUpgradeSpecs(annotations[SIDECARSET_HASH_ANNOTATION]);
  hashes.set(name, {
    updateTimestamp,
    hash: sidecarSetHash(set.spec),
    sidecarSetName: name,
    sidecarList,
    ...(revision === undefined ? {} : { controllerRevision: revision }),
  });
  const withoutImage = parseUpgradeSpecs(annotations[SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION]);
  withoutImage.set(name, {
    updateTimestamp,
    hash: sidecarSetHashWithoutImage(set.spec),
    sidecarSetName: name,
    sidecarList,
  });
  return {
    ...annotations,
    [SIDECARSET_HASH_ANNOTATION]: formatUpgradeSpecs(hashes),
    [SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION]: formatUpgradeSpecs(withoutImage),
    [SIDECARSET_INPLACE_UPDATE_STATE_ANNOTATION]: inPlaceStateText(pod, set, {
      changed: input.changed,
      updateTimestamp,
    }),
  };
}

/** The in-place state map with this SidecarSet's entry: the new hash, the first start time, the imageIDs from before. */
function inPlaceStateText(
  pod: ReadonlyPod,
  set: DeepReadonly<SidecarSet>,
  input: { readonly changed: Record<string, { imageID: string }>; readonly updateTimestamp: string },
): string {
  const name = set.metadata.name ?? '';
  const states = inPlaceStates(pod);
  const previous = states[name];
  states[name] = {
    revision: sidecarSetHash(set.spec),
    updateTimestamp: previous?.updateTimestamp ?? input.updateTimestamp,
    lastContainerStatuses: { ...previous?.lastContainerStatuses, ...input.changed },
  };
  return JSON.stringify(states);
}

/** The patch that upgrades the pod's sidecars to the SidecarSet's images, or undefined when nothing changes. */
export function sidecarUpgradePatch(
  pod: ReadonlyPod,
  set: DeepReadonly<SidecarSet>,
  now: Date,
): JsonPatchOperation[] | undefined {
  const pairs = pairUpgrade(pod, set);
  const { containers, changed } = upgradedContainers(pod, set, pairs);
  const annotations = upgradedAnnotations(pod, set, { changed, now, pairs });
  const original = {
    metadata: pod.metadata?.annotations === undefined ? {} : { annotations: pod.metadata.annotations },
    spec: { containers: pod.spec?.containers ?? [] },
  };
  const operations = createJsonPatch(original, { metadata: { annotations }, spec: { containers } });
  if (operations.length === 0) {
    return undefined;
  }
  return [{ op: 'test', path: '/metadata/resourceVersion', value: pod.metadata?.resourceVersion ?? '' }, ...operations];
}
