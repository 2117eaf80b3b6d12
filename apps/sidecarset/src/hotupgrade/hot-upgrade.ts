/**
 * Hot upgrade (§B.6.6, §B.8.5): a HotUpgrade sidecar `x` runs in the pod as a pair, `x-1` and `x-2`,
 * one working with the real image and one idle with `hotUpgradeEmptyImage`. An upgrade puts the new
 * image on the idle one (both run while the sidecar hands over, using SIDECARSET_VERSION and
 * SIDECARSET_VERSION_ALT), then the flip puts the empty image back on the old one. The pod keeps the
 * working member in `kruise.io/sidecarset-working-hotupgrade-container` (`{"x":"x-2"}`) and each
 * member's version in `version.sidecarset.kruise.io/<member>` / `versionalt.sidecarset.kruise.io/<member>`.
 * Names, keys and values are OpenKruise's, so that pods it injected are upgraded by us.
 */
import {
  SIDECARSET_VERSION_ALT_ANNOTATION_PREFIX,
  SIDECARSET_VERSION_ANNOTATION_PREFIX,
  SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION,
} from '@kruise-ts/api';
import type { Pod, SidecarContainer, SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

type PodContainer = NonNullable<Pod['spec']>['containers'][number];
type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlySidecar = DeepReadonly<SidecarContainer>;

/** The env of a pair member naming its version, and the other member's. */
export const SIDECARSET_VERSION_ENV = 'SIDECARSET_VERSION';
export const SIDECARSET_VERSION_ALT_ENV = 'SIDECARSET_VERSION_ALT';

export function isHotUpgrade(sidecar: ReadonlySidecar): boolean {
  return sidecar.upgradeStrategy.upgradeType === 'HotUpgrade';
}

/** `x` → [`x-1`, `x-2`]. */
export function hotUpgradeNames(name: string): readonly [string, string] {
  return [`${name}-1`, `${name}-2`];
}

export function versionAnnotation(container: string): string {
  return `${SIDECARSET_VERSION_ANNOTATION_PREFIX}${container}`;
}

export function versionAltAnnotation(container: string): string {
  return `${SIDECARSET_VERSION_ALT_ANNOTATION_PREFIX}${container}`;
}

const workingSchema = z.record(z.string(), z.string());

/** The pod's working members by sidecar name; unreadable text reads as empty. */
export function workingContainers(pod: ReadonlyPod): Map<string, string> {
  const text = pod.metadata?.annotations?.[SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION];
  if (text === undefined || text === '') {
    return new Map();
  }
  try {
    const parsed = workingSchema.safeParse(JSON.parse(text));
    return new Map<string, string>(parsed.success ? Object.entries(parsed.data) : []);
  } catch {
    return new Map<string, string>();
  }
}

/** The annotation text, keys sorted as Go writes a map. */
export function formatWorkingContainers(working: ReadonlyMap<string, string>): string {
  return JSON.stringify(Object.fromEntries([...working.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/** One member's version env vars, read from the pod's annotations by the downward API. */
function versionEnv(member: string): NonNullable<PodContainer['env']> {
  return [
    {
      name: SIDECARSET_VERSION_ENV,
      valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${versionAnnotation(member)}']` } },
    },
    {
      name: SIDECARSET_VERSION_ALT_ENV,
      valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${versionAltAnnotation(member)}']` } },
    },
  ];
}

/** The pair that replaces a built sidecar container: `x-1` working with its image, `x-2` idle with the empty image. */
export function hotUpgradePair(built: PodContainer, sidecar: ReadonlySidecar): [PodContainer, PodContainer] {
  const [first, second] = hotUpgradeNames(sidecar.name);
  const member = (name: string, image: string): PodContainer => ({
    ...structuredClone(built),
    name,
    image,
    env: [...(built.env ?? []), ...versionEnv(name)],
  });
  return [member(first, built.image ?? ''), member(second, sidecar.upgradeStrategy.hotUpgradeEmptyImage ?? '')];
}

/** The annotations a new pod gets for one HotUpgrade sidecar: versions 1/0, alternates 0/1, `x-1` working. */
export function injectedPairAnnotations(sidecarName: string): Record<string, string> {
  const [first, second] = hotUpgradeNames(sidecarName);
  return {
    [versionAnnotation(first)]: '1',
    [versionAltAnnotation(first)]: '0',
    [versionAnnotation(second)]: '0',
    [versionAltAnnotation(second)]: '1',
  };
}

/** A pair as it is in a pod: the working member and the other one. */
export interface PodPair {
  readonly sidecar: ReadonlySidecar;
  readonly working: string;
  readonly other: string;
}

/** The SidecarSet's HotUpgrade pairs in the pod (a pair without a working entry, or a member missing, is left out). */
export function podPairs(pod: ReadonlyPod, set: DeepReadonly<SidecarSet>): PodPair[] {
  const working = workingContainers(pod);
  const names = new Set((pod.spec?.containers ?? []).map((container) => container.name));
  return (set.spec.containers ?? []).filter(isHotUpgrade).flatMap((sidecar) => {
    const members = hotUpgradeNames(sidecar.name);
    const current = working.get(sidecar.name);
    if (current === undefined || !members.every((name) => names.has(name))) {
      return [];
    }
    return [{ sidecar, working: current, other: current === members[0] ? members[1] : members[0] }];
  });
}

/** The pod-side names of the SidecarSet's containers: a cold sidecar's own name, both members of a pair. */
export function podSidecarNames(set: DeepReadonly<SidecarSet>): string[] {
  return (set.spec.containers ?? []).flatMap((sidecar) =>
    isHotUpgrade(sidecar) ? [...hotUpgradeNames(sidecar.name)] : [sidecar.name],
  );
}

/** Whether the pod has every sidecar of the set: cold ones by name, HotUpgrade ones as a pair with a working entry. */
export function hasAllSidecars(pod: ReadonlyPod, set: DeepReadonly<SidecarSet>): boolean {
  const names = new Set((pod.spec?.containers ?? []).map((container) => container.name));
  const cold = (set.spec.containers ?? []).filter((sidecar) => !isHotUpgrade(sidecar));
  return (
    cold.every((sidecar) => names.has(sidecar.name)) &&
    podPairs(pod, set).length === (set.spec.containers ?? []).filter(isHotUpgrade).length
  );
}

function specImage(pod: ReadonlyPod, name: string): string | undefined {
  return pod.spec?.containers.find((container) => container.name === name)?.image;
}

/** The pairs whose non-working member does not run the empty image: an upgrade waiting for its flip. */
export function pairsToFlip(pod: ReadonlyPod, set: DeepReadonly<SidecarSet>): PodPair[] {
  return podPairs(pod, set).filter(
    (pair) => specImage(pod, pair.other) !== pair.sidecar.upgradeStrategy.hotUpgradeEmptyImage,
  );
}

/** What an upgrade changes for the pod's pairs: the idle members' new images and the pod's annotations. */
export interface PairUpgrade {
  readonly images: ReadonlyMap<string, string>;
  readonly annotations: Readonly<Record<string, string>>;
}

/**
 * The upgrade of every pair whose working member does not run the SidecarSet's image: the new image on
 * the idle member, which becomes the working one (version: the SidecarSet's resourceVersion; its
 * alternate: the old member's version; the old member's alternate: the new version), as
 * OpenKruise's updatePodSidecarAndHash does.
 */
export function pairUpgrade(pod: ReadonlyPod, set: DeepReadonly<SidecarSet>): PairUpgrade {
  const images = new Map<string, string>();
  const annotations: Record<string, string> = {};
  const working = workingContainers(pod);
  const version = set.metadata.resourceVersion ?? '';
  for (const pair of podPairs(pod, set)) {
    const image = pair.sidecar.image ?? '';
    if (specImage(pod, pair.working) === image) {
      continue;
    }
    images.set(pair.other, image);
    working.set(pair.sidecar.name, pair.other);
    annotations[versionAnnotation(pair.other)] = version;
    annotations[versionAltAnnotation(pair.other)] = pod.metadata?.annotations?.[versionAnnotation(pair.working)] ?? '';
    annotations[versionAltAnnotation(pair.working)] = version;
  }
  if (images.size > 0) {
    annotations[SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION] = formatWorkingContainers(working);
  }
  return { images, annotations };
}
