/**
 * The second half of a hot upgrade (§B.8.5, OpenKruise's flipHotUpgradingContainers): once the newly
 * working member runs (every sidecar but the old members is consistent, and the pod is Ready or every
 * container but the old members is ready), the old member goes back to the empty image and its
 * version to "0" (and the working member's alternate to "0"). The pod's hash record does not change.
 * One JSON patch, guarded by the pod's resourceVersion; the old member's imageID is recorded so that
 * the reset can be seen done.
 */
import { SIDECARSET_INPLACE_UPDATE_STATE_ANNOTATION } from '@kruise-ts/api';
import type { Pod, SidecarSet } from '@kruise-ts/api';
import { createJsonPatch } from '@kruise-ts/webhook';
import type { DeepReadonly, JsonPatchOperation } from '@kruise-ts/controller-runtime';

import { sidecarSetHash } from '../hash/sidecarset-hash.ts';
import { inPlaceStates, isSidecarStateConsistent } from '../upgrade/inplace-state.ts';
import { pairsToFlip, podSidecarNames, versionAltAnnotation, versionAnnotation } from './hot-upgrade.ts';
import type { PodPair } from './hot-upgrade.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type PodContainer = NonNullable<Pod['spec']>['containers'][number];

function isPodReady(pod: ReadonlyPod): boolean {
  return (
    pod.status?.phase === 'Running' &&
    (pod.status.conditions ?? []).some((condition) => condition.type === 'Ready' && condition.status === 'True')
  );
}

/** Whether the pod's pairs may be flipped now. */
function mayFlip(pod: ReadonlyPod, set: DeepReadonly<SidecarSet>, pairs: readonly PodPair[]): boolean {
  const old = new Set(pairs.map((pair) => pair.other));
  const sidecars = podSidecarNames(set).filter((name) => !old.has(name));
  if (!isSidecarStateConsistent(pod, set.metadata.name ?? '', sidecars)) {
    return false;
  }
  if (isPodReady(pod)) {
    return true;
  }
  const statuses = (pod.status?.containerStatuses ?? []).filter((status) => !old.has(status.name));
  return statuses.length > 0 && statuses.every((status) => status.ready);
}

/** The in-place state with the reset members' imageIDs from before the reset. */
function stateWithReset(pod: ReadonlyPod, set: DeepReadonly<SidecarSet>, pairs: readonly PodPair[]): string {
  const name = set.metadata.name ?? '';
  const states = inPlaceStates(pod);
  const previous = states[name];
  const reset = Object.fromEntries(
    pairs.map((pair) => [
      pair.other,
      { imageID: pod.status?.containerStatuses?.find((status) => status.name === pair.other)?.imageID ?? '' },
    ]),
  );
  states[name] = {
    ...previous,
    revision: previous?.revision ?? sidecarSetHash(set.spec),
    lastContainerStatuses: { ...previous?.lastContainerStatuses, ...reset },
  };
  return JSON.stringify(states);
}

/** The pod's containers with the old members on the empty image. */
function resetContainers(pod: ReadonlyPod, pairs: readonly PodPair[]): PodContainer[] {
  const empty = new Map(pairs.map((pair) => [pair.other, pair.sidecar.upgradeStrategy.hotUpgradeEmptyImage ?? '']));
  return (pod.spec?.containers ?? []).map((container) => {
    const image = empty.get(container.name);
    return { ...(structuredClone(container) as PodContainer), ...(image === undefined ? {} : { image }) };
  });
}

/** The flip of the pod's pairs that wait for it, or undefined when none does or the pod is not ready for it. */
export function flipPatch(pod: ReadonlyPod, set: DeepReadonly<SidecarSet>): JsonPatchOperation[] | undefined {
  const pairs = pairsToFlip(pod, set);
  if (pairs.length === 0 || !mayFlip(pod, set, pairs)) {
    return undefined;
  }
  const containers = resetContainers(pod, pairs);
  const versions = Object.fromEntries(
    pairs.flatMap((pair) => [
      [versionAnnotation(pair.other), '0'],
      [versionAltAnnotation(pair.working), '0'],
    ]),
  );
  const annotations: Record<string, string> = {
    ...pod.metadata?.annotations,
    ...versions,
    [SIDECARSET_INPLACE_UPDATE_STATE_ANNOTATION]: stateWithReset(pod, set, pairs),
  };
  const original = {
    metadata: { annotations: pod.metadata?.annotations ?? {} },
    spec: { containers: pod.spec?.containers ?? [] },
  };
  return [
    { op: 'test', path: '/metadata/resourceVersion', value: pod.metadata?.resourceVersion ?? '' },
    ...createJsonPatch(original, { metadata: { annotations }, spec: { containers } }),
  ];
}
