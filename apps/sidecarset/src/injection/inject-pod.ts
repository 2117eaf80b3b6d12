/**
 * Injection of a new pod (§B.6): the annotations of every matching SidecarSet's patchPodMetadata, its
 * sidecars and init containers placed by podInjectPolicy, the volumes they mount, its image pull
 * secrets, and the pod's record of what was injected. Pure: the webhook turns the result into a JSON
 * patch, the controller uses the same code to see what a pod should have had.
 */
import {
  SIDECARSET_HASH_ANNOTATION,
  SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION,
  SIDECARSET_INJECTED_LIST_ANNOTATION,
  SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION,
} from '@kruise-ts/api';
import type { Pod, SidecarContainer, SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { sidecarSetHash, sidecarSetHashWithoutImage } from '../hash/sidecarset-hash.ts';
import {
  formatWorkingContainers,
  hotUpgradePair,
  injectedPairAnnotations,
  isHotUpgrade,
  workingContainers,
} from '../hotupgrade/hot-upgrade.ts';
import { policyResources } from '../resources/resources-policy.ts';
import { buildSidecar, mountedVolumes } from './build-sidecars.ts';
import type { InjectedContainer } from './build-sidecars.ts';
import { mergeSidecarContainers } from './merge-containers.ts';
import { patchPodAnnotations } from './patch-pod-metadata.ts';
import { formatUpgradeSpecs, injectedList, parseUpgradeSpecs, sidecarListOf } from './pod-hash-annotations.ts';

type ReadonlySidecarSet = DeepReadonly<SidecarSet>;
type PodSpec = NonNullable<Pod['spec']>;

/** What one SidecarSet adds. */
interface SetInjection {
  readonly set: ReadonlySidecarSet;
  readonly initContainers: InjectedContainer[];
  readonly containers: InjectedContainer[];
  readonly volumes: NonNullable<PodSpec['volumes']>;
}

/** The sidecar with the resources its resourcesPolicy computes from the pod, if it has one. */
function withPolicyResources(
  pod: DeepReadonly<Pod>,
  sidecar: DeepReadonly<SidecarContainer>,
  sidecarNames: ReadonlySet<string>,
): DeepReadonly<SidecarContainer> {
  const policy = sidecar.resourcesPolicy;
  return policy === undefined ? sidecar : { ...sidecar, resources: policyResources(pod, policy, sidecarNames) };
}

function setInjection(
  pod: DeepReadonly<Pod>,
  set: ReadonlySidecarSet,
  sidecarNames: ReadonlySet<string>,
): SetInjection {
  const build = (sidecar: DeepReadonly<SidecarContainer>) =>
    buildSidecar(pod, withPolicyResources(pod, sidecar, sidecarNames));
  const initContainers = [...(set.spec.initContainers ?? [])]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(build);
  const containers = (set.spec.containers ?? []).flatMap((sidecar) => {
    const built = build(sidecar);
    return isHotUpgrade(sidecar)
      ? hotUpgradePair(built.container, sidecar).map((container) => ({ container, policy: built.policy }))
      : [built];
  });
  return { set, initContainers, containers, volumes: mountedVolumes(set, [...initContainers, ...containers]) };
}

/** The version annotations of every HotUpgrade pair, and each pair's first member as the working one. */
function recordHotUpgradePairs(
  annotations: Record<string, string>,
  pod: DeepReadonly<Pod>,
  injections: readonly SetInjection[],
): void {
  const hot = injections.flatMap(({ set }) => (set.spec.containers ?? []).filter(isHotUpgrade));
  if (hot.length === 0) {
    return;
  }
  const working = workingContainers(pod);
  for (const sidecar of hot) {
    Object.assign(annotations, injectedPairAnnotations(sidecar.name));
    working.set(sidecar.name, `${sidecar.name}-1`);
  }
  annotations[SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION] = formatWorkingContainers(working);
}

/** `own` first (the pod's entries win), then the added ones of new names. */
function byName<T extends { readonly name?: string | undefined }>(own: readonly T[], added: readonly T[]): T[] {
  const merged = [...own];
  const names = new Set(own.map((item) => item.name));
  for (const item of added) {
    if (names.has(item.name)) {
      continue;
    }
    names.add(item.name);
    merged.push(item);
  }
  return merged;
}

/**
 * The two hashes of a SidecarSet, once per cached version: they change only with its spec, and
 * computing them for every injected pod was about 1 ms of the webhook's 2.4 ms per pod
 * (docs/benchmarks.md, SidecarSet).
 */
const hashesOfSpec = new WeakMap<object, { readonly hash: string; readonly withoutImage: string }>();

function hashesOf(set: ReadonlySidecarSet): { readonly hash: string; readonly withoutImage: string } {
  let hashes = hashesOfSpec.get(set.spec);
  if (hashes === undefined) {
    hashes = { hash: sidecarSetHash(set.spec), withoutImage: sidecarSetHashWithoutImage(set.spec) };
    hashesOfSpec.set(set.spec, hashes);
  }
  return hashes;
}

function recordInjections(annotations: Record<string, string>, injections: readonly SetInjection[], now: Date): void {
  const hashes = parseUpgradeSpecs(annotations[SIDECARSET_HASH_ANNOTATION]);
  const withoutImage = parseUpgradeSpecs(annotations[SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION]);
  const updateTimestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const { set } of injections) {
    const name = set.metadata.name ?? '';
    const sidecarList = sidecarListOf(set);
    const revision = set.status?.latestRevision;
    const setHashes = hashesOf(set);
    hashes.set(name, {
      updateTimestamp,
      hash: setHashes.hash,
      sidecarSetName: name,
      sidecarList,
      ...(revision === undefined ? {} : { controllerRevision: revision }),
    });
    withoutImage.set(name, { updateTimestamp, hash: setHashes.withoutImage, sidecarSetName: name, sidecarList });
  }
  annotations[SIDECARSET_HASH_ANNOTATION] = formatUpgradeSpecs(hashes);
  annotations[SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION] = formatUpgradeSpecs(withoutImage);
  annotations[SIDECARSET_INJECTED_LIST_ANNOTATION] = injectedList(
    annotations[SIDECARSET_INJECTED_LIST_ANNOTATION],
    injections.map(({ set }) => set.metadata.name ?? ''),
  );
}

/**
 * The pod with the SidecarSets' sidecars (`sets`: the injecting ones, in order); the input is not
 * changed. Throws a ResourcesPolicyError when a sidecar's resourcesPolicy cannot be carried out.
 */
export function injectSidecars(pod: DeepReadonly<Pod>, sets: readonly ReadonlySidecarSet[], now: Date): Pod {
  const result = structuredClone(pod) as Pod;
  const annotations = patchPodAnnotations(
    result.metadata?.annotations ?? {},
    sets.flatMap((set) => set.spec.patchPodMetadata ?? []),
  );
  // resourcesPolicy targets the pod's own containers: no sidecar of these SidecarSets counts.
  const sidecarNames = new Set(
    sets.flatMap((set) =>
      [...(set.spec.initContainers ?? []), ...(set.spec.containers ?? [])].map((sidecar) => sidecar.name),
    ),
  );
  const injections = sets
    .map((set) => setInjection(pod, set, sidecarNames))
    .filter((injection) => injection.containers.length + injection.initContainers.length > 0);
  const spec: PodSpec = result.spec ?? { containers: [] };
  if (injections.length > 0) {
    applyInjections(spec, injections);
    recordInjections(annotations, injections, now);
    recordHotUpgradePairs(annotations, pod, injections);
  }
  return { ...result, metadata: { ...result.metadata, annotations }, spec };
}

/** The containers, init containers, volumes and image pull secrets of the injections, merged into `spec`. */
function applyInjections(spec: PodSpec, injections: readonly SetInjection[]): void {
  const initContainers = mergeSidecarContainers(
    spec.initContainers ?? [],
    injections.flatMap((injection) => injection.initContainers),
  );
  if (initContainers.length > 0) {
    spec.initContainers = initContainers;
  }
  spec.containers = mergeSidecarContainers(
    spec.containers,
    injections.flatMap((injection) => injection.containers),
  );
  const volumes = byName(
    spec.volumes ?? [],
    injections.flatMap((injection) => injection.volumes),
  );
  if (volumes.length > 0) {
    spec.volumes = volumes;
  }
  const setSecrets = injections.flatMap(({ set }) =>
    (set.spec.imagePullSecrets ?? []).flatMap((secret) => (secret.name === undefined ? [] : [{ name: secret.name }])),
  );
  const secrets = byName(spec.imagePullSecrets ?? [], setSecrets);
  if (secrets.length > 0) {
    spec.imagePullSecrets = secrets;
  }
}
