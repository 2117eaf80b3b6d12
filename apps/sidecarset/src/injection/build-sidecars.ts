/**
 * The containers one SidecarSet adds to a new pod (§B.6.2, §B.6.5): each sidecar with the pod's
 * volume mounts (and volume devices) when it shares them, env vars transferred from a pod container, `IS_INJECTED=true`,
 * and without the SidecarSet-only fields; and the SidecarSet volumes those sidecars mount.
 */
import { SIDECAR_INJECTED_ENV } from '@kruise-ts/api';
import type { Pod, SidecarContainer, SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

type PodContainer = NonNullable<Pod['spec']>['containers'][number];
type EnvVar = NonNullable<PodContainer['env']>[number];
type VolumeMount = NonNullable<PodContainer['volumeMounts']>[number];
type VolumeDevice = NonNullable<PodContainer['volumeDevices']>[number];
type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlySidecar = DeepReadonly<SidecarContainer>;

/** A container as injected, with where it goes. */
export interface InjectedContainer {
  readonly container: PodContainer;
  readonly policy: SidecarContainer['podInjectPolicy'];
}

const SIDECAR_ONLY_FIELDS = new Set([
  'podInjectPolicy',
  'upgradeStrategy',
  'shareVolumePolicy',
  'shareVolumeDevicePolicy',
  'transferEnv',
  'resourcesPolicy',
]);

function isInjected(container: DeepReadonly<PodContainer>): boolean {
  return (container.env ?? []).some((env) => env.name === SIDECAR_INJECTED_ENV && env.value === 'true');
}

/** The env vars of `container` that a mount's subPathExpr refers to (`$(VAR)`). */
function subPathEnv(container: DeepReadonly<PodContainer>, mount: DeepReadonly<VolumeMount>): EnvVar[] {
  const names = [...(mount.subPathExpr ?? '').matchAll(/\$\(([^)]+)\)/g)].map((match) => match[1]);
  return (container.env ?? []).filter((env) => names.includes(env.name)).map((env) => structuredClone(env) as EnvVar);
}

/** The pod containers' volume mounts a sharing sidecar gets, and the env vars their subPathExpr needs. */
function sharedMounts(pod: ReadonlyPod): { readonly mounts: VolumeMount[]; readonly env: EnvVar[] } {
  const appContainers = (pod.spec?.containers ?? []).filter((candidate) => !isInjected(candidate));
  return {
    mounts: appContainers.flatMap((container) =>
      (container.volumeMounts ?? []).map((mount) => structuredClone(mount) as VolumeMount),
    ),
    env: appContainers.flatMap((container) =>
      (container.volumeMounts ?? []).flatMap((mount) => subPathEnv(container, mount)),
    ),
  };
}

/** The pod containers' volume devices a sidecar with shareVolumeDevicePolicy enabled gets. */
function sharedDevices(pod: ReadonlyPod): VolumeDevice[] {
  const appContainers = (pod.spec?.containers ?? []).filter((candidate) => !isInjected(candidate));
  return appContainers.flatMap((container) =>
    (container.volumeDevices ?? []).map((device) => structuredClone(device) as VolumeDevice),
  );
}

/** The sidecar's own volume devices, and with shareVolumeDevicePolicy enabled the app containers' of other paths. */
function deviceList(pod: ReadonlyPod, sidecar: ReadonlySidecar, own: readonly VolumeDevice[]): VolumeDevice[] {
  return sidecar.shareVolumeDevicePolicy?.type === 'enabled'
    ? mergeBy(own, sharedDevices(pod), (device) => device.devicePath)
    : [...own];
}

/** A pod metadata value named by a fieldRef path: metadata.name, metadata.labels['k'], metadata.annotations['k']. */
function fieldRefValue(pod: ReadonlyPod, fieldPath: string): string | undefined {
  if (fieldPath === 'metadata.name') {
    return pod.metadata?.name;
  }
  const match = /^metadata\.(labels|annotations)\['([^']+)'\]$/.exec(fieldPath);
  const [, map, key] = match ?? [];
  if (key === undefined) {
    return undefined;
  }
  return (map === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations)?.[key] ?? undefined;
}

/** The source container of a transferEnv entry, by name or read from the pod's metadata. */
function sourceContainerName(
  pod: ReadonlyPod,
  entry: NonNullable<ReadonlySidecar['transferEnv']>[number],
): string | undefined {
  return entry.sourceContainerName ?? fieldRefValue(pod, entry.sourceContainerNameFrom?.fieldRef?.fieldPath ?? '');
}

/** The names a transferEnv entry copies, sorted. */
function transferredNames(entry: NonNullable<ReadonlySidecar['transferEnv']>[number]): string[] {
  return [...new Set([...(entry.envName === undefined ? [] : [entry.envName]), ...(entry.envNames ?? [])])].sort();
}

/** The env vars transferEnv copies, in sorted name order per entry; missing ones are skipped. */
function transferredEnv(pod: ReadonlyPod, sidecar: ReadonlySidecar): EnvVar[] {
  return (sidecar.transferEnv ?? []).flatMap((entry) => {
    const source = (pod.spec?.containers ?? []).find((container) => container.name === sourceContainerName(pod, entry));
    return transferredNames(entry).flatMap((name) =>
      (source?.env ?? []).filter((env) => env.name === name).map((env) => structuredClone(env) as EnvVar),
    );
  });
}

/** `own` first, then `extra` whose names (or `key`) are new. */
function mergeBy<T>(own: readonly T[], extra: readonly T[], key: (item: T) => string | undefined): T[] {
  const merged = [...own];
  const seen = new Set(own.map(key));
  for (const item of extra) {
    if (seen.has(key(item))) {
      continue;
    }
    seen.add(key(item));
    merged.push(item);
  }
  return merged;
}

/** One sidecar as it goes into the pod. */
export function buildSidecar(pod: ReadonlyPod, sidecar: ReadonlySidecar): InjectedContainer {
  const body = Object.fromEntries(
    Object.entries(structuredClone(sidecar)).filter(([field]) => !SIDECAR_ONLY_FIELDS.has(field)),
  ) as PodContainer;
  const shared = sidecar.shareVolumePolicy.type === 'enabled' ? sharedMounts(pod) : { mounts: [], env: [] };
  const devicePaths = new Set((body.volumeDevices ?? []).map((device) => device.devicePath));
  const mounts = mergeBy(
    body.volumeMounts ?? [],
    shared.mounts.filter((mount) => !devicePaths.has(mount.mountPath)),
    (mount) => mount.mountPath,
  );
  const env = mergeBy(
    [
      ...(body.env ?? []).filter((candidate) => candidate.name !== SIDECAR_INJECTED_ENV),
      { name: SIDECAR_INJECTED_ENV, value: 'true' },
    ],
    [...transferredEnv(pod, sidecar), ...shared.env],
    (candidate) => candidate.name,
  );
  const devices = deviceList(pod, sidecar, body.volumeDevices ?? []);
  const container = {
    ...body,
    env,
    ...(mounts.length === 0 ? {} : { volumeMounts: mounts }),
    ...(devices.length === 0 ? {} : { volumeDevices: devices }),
  };
  return { container, policy: sidecar.podInjectPolicy };
}

/** The SidecarSet volumes the injected containers mount (by name), in the SidecarSet's order. */
export function mountedVolumes(
  set: DeepReadonly<SidecarSet>,
  containers: readonly InjectedContainer[],
): NonNullable<NonNullable<Pod['spec']>['volumes']> {
  const names = new Set(
    containers.flatMap(({ container }) => [
      ...(container.volumeMounts ?? []).map((mount) => mount.name),
      ...(container.volumeDevices ?? []).map((device) => device.name),
    ]),
  );
  return (set.spec.volumes ?? [])
    .filter((volume) => names.has(volume.name))
    .map((volume) => structuredClone(volume) as NonNullable<NonNullable<Pod['spec']>['volumes']>[number]);
}
