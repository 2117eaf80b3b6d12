/**
 * A pod's volumes as directories under the pod's own directory: Secret, ConfigMap, downward API and
 * projected volumes (the ServiceAccount token, its CA and namespace) written as files, emptyDir as an
 * empty directory. Containers see them at their `mountPath` through the pod shim (pod-shim.ts).
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { V1Container, V1KeyToPath, V1Pod, V1Volume, V1VolumeProjection } from '@kubernetes/client-node';

import { fieldPathValue } from './pod-env.ts';
import type { PodSources } from './pod-sources.ts';

/** Why a volume could not be written (a missing Secret, an unsupported volume type): the pod waits. */
export class VolumeError extends Error {}

/** Files of one volume, by path inside it. */
type VolumeFiles = Map<string, Buffer>;

const DEFAULT_TOKEN_SECONDS = 3600;

function selected(data: Record<string, Buffer>, items: readonly V1KeyToPath[] | undefined, what: string): VolumeFiles {
  if (items === undefined || items.length === 0) {
    return new Map(Object.entries(data));
  }
  const files: VolumeFiles = new Map();
  for (const item of items) {
    const value = data[item.key];
    if (value === undefined) {
      throw new VolumeError(`${what} has no key ${JSON.stringify(item.key)}`);
    }
    files.set(item.path, value);
  }
  return files;
}

interface ProjectionContext {
  readonly pod: V1Pod;
  readonly sources: PodSources;
  /** Earliest expiry of a token written, so the kubelet can refresh it. */
  tokenExpiresAt?: Date;
}

async function objectFiles(
  context: ProjectionContext,
  kind: 'secret' | 'configMap',
  reference: { name?: string; items?: V1KeyToPath[]; optional?: boolean },
): Promise<VolumeFiles> {
  const namespace = context.pod.metadata?.namespace ?? '';
  const name = reference.name ?? '';
  const data =
    kind === 'secret'
      ? await context.sources.secret(namespace, name)
      : await context.sources.configMap(namespace, name);
  if (data === undefined) {
    if (reference.optional === true) {
      return new Map();
    }
    throw new VolumeError(`${kind === 'secret' ? 'secret' : 'configmap'} ${JSON.stringify(name)} not found`);
  }
  return selected(data, reference.items, `${kind} ${JSON.stringify(name)}`);
}

function downwardFiles(pod: V1Pod, items: readonly { path: string; fieldRef?: { fieldPath: string } }[]): VolumeFiles {
  const files: VolumeFiles = new Map();
  for (const item of items) {
    if (item.fieldRef === undefined) {
      throw new VolumeError(`downward API item ${item.path}: only fieldRef is supported by the process kubelet`);
    }
    files.set(item.path, Buffer.from(fieldPathValue(pod, item.fieldRef.fieldPath)));
  }
  return files;
}

async function projectionFiles(context: ProjectionContext, projection: V1VolumeProjection): Promise<VolumeFiles> {
  if (projection.serviceAccountToken !== undefined) {
    const source = projection.serviceAccountToken;
    const request = {
      expirationSeconds: source.expirationSeconds ?? DEFAULT_TOKEN_SECONDS,
      ...(source.audience === undefined ? {} : { audience: source.audience }),
    };
    const { token, expiresAt } = await context.sources.serviceAccountToken(context.pod, request);
    if (context.tokenExpiresAt === undefined || expiresAt < context.tokenExpiresAt) {
      context.tokenExpiresAt = expiresAt;
    }
    return new Map([[source.path, Buffer.from(token)]]);
  }
  if (projection.secret !== undefined) {
    return objectFiles(context, 'secret', projection.secret);
  }
  if (projection.configMap !== undefined) {
    return objectFiles(context, 'configMap', projection.configMap);
  }
  if (projection.downwardAPI !== undefined) {
    return downwardFiles(context.pod, projection.downwardAPI.items ?? []);
  }
  throw new VolumeError('a projected source other than serviceAccountToken, secret, configMap and downwardAPI');
}

async function projectedFiles(
  context: ProjectionContext,
  sources: readonly V1VolumeProjection[],
): Promise<VolumeFiles> {
  const files: VolumeFiles = new Map();
  for (const source of sources) {
    for (const [file, content] of await projectionFiles(context, source)) {
      files.set(file, content);
    }
  }
  return files;
}

async function volumeFiles(context: ProjectionContext, volume: V1Volume): Promise<VolumeFiles | 'emptyDir'> {
  if (volume.emptyDir !== undefined) {
    return 'emptyDir';
  }
  if (volume.projected !== undefined) {
    return projectedFiles(context, volume.projected.sources ?? []);
  }
  if (volume.secret !== undefined) {
    const { secretName, ...rest } = volume.secret;
    return objectFiles(context, 'secret', { ...rest, ...(secretName === undefined ? {} : { name: secretName }) });
  }
  if (volume.configMap !== undefined) {
    return objectFiles(context, 'configMap', volume.configMap);
  }
  if (volume.downwardAPI !== undefined) {
    return downwardFiles(context.pod, volume.downwardAPI.items ?? []);
  }
  throw new VolumeError(
    `volume ${JSON.stringify(volume.name)}: only emptyDir, secret, configMap, downwardAPI and projected volumes are supported by the process kubelet`,
  );
}

/** Writes the files into a fresh directory, then swaps it in, so a reader never sees half a token. */
async function writeAtomically(directory: string, files: VolumeFiles): Promise<void> {
  const staging = `${directory}.staging`;
  await rm(staging, { recursive: true, force: true });
  for (const [file, content] of files) {
    const target = path.join(staging, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content, { mode: 0o600 });
  }
  await mkdir(staging, { recursive: true });
  await rm(directory, { recursive: true, force: true });
  await rename(staging, directory);
}

export interface WrittenVolumes {
  /** Directories by volume name. */
  readonly directories: ReadonlyMap<string, string>;
  /** When the earliest ServiceAccount token written expires (undefined: no token). */
  readonly tokenExpiresAt: Date | undefined;
}

/** Writes every volume of `pod` under `podDirectory/volumes`; emptyDirs are created once and kept. */
export async function writePodVolumes(pod: V1Pod, podDirectory: string, sources: PodSources): Promise<WrittenVolumes> {
  const context: ProjectionContext = { pod, sources };
  const directories = new Map<string, string>();
  for (const volume of pod.spec?.volumes ?? []) {
    const directory = path.join(podDirectory, 'volumes', volume.name);
    const files = await volumeFiles(context, volume);
    if (files === 'emptyDir') {
      await mkdir(directory, { recursive: true });
    } else {
      await writeAtomically(directory, files);
    }
    directories.set(volume.name, directory);
  }
  return { directories, tokenExpiresAt: context.tokenExpiresAt };
}

/** [mountPath, directory] of a container's mounts, longest mountPath first (the shim's order). */
export function containerMounts(container: V1Container, directories: ReadonlyMap<string, string>): [string, string][] {
  const mounts: [string, string][] = [];
  for (const mount of container.volumeMounts ?? []) {
    const directory = directories.get(mount.name);
    if (directory === undefined) {
      throw new VolumeError(`volumeMount ${JSON.stringify(mount.name)} names no volume of the pod`);
    }
    mounts.push([
      mount.mountPath.replace(/\/+$/u, ''),
      mount.subPath === undefined || mount.subPath === '' ? directory : path.join(directory, mount.subPath),
    ]);
  }
  return mounts.sort(([a], [b]) => b.length - a.length);
}
