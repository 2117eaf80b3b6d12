/**
 * What to run for a container: the image's mapping resolved to a command, the container's ports
 * mapped to host ports, its mounts to the pod's volume directories, all handed to the pod shim.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { V1Container } from '@kubernetes/client-node';

import { ContainerStartError } from './container-worker.ts';
import type { ImageMapping } from './image-mapping.ts';
import { expandReferences } from './pod-env.ts';
import { POD_SHIM_ENV } from './pod-shim-config.ts';

export const POD_SHIM_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pod-shim.ts');

export interface CommandLine {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The container's command line as a container runtime builds it from the image and the pod spec;
 * `$(VAR)` in the pod's command and args expands from the container's environment, as the kubelet does.
 */
export function commandLine(
  container: V1Container,
  image: ImageMapping,
  env: Readonly<Record<string, string>> = {},
): CommandLine {
  const expand = (parts: readonly string[]): string[] => parts.map((part) => expandReferences(part, env));
  const command = container.command === undefined ? image.entrypoint : expand(container.command);
  const args =
    container.args === undefined ? (container.command === undefined ? image.cmd : []) : expand(container.args);
  const [executable, ...rest] = [...command, ...args];
  if (executable === undefined) {
    throw new ContainerStartError('no command specified');
  }
  const resolved = image.executables[executable];
  if (resolved === undefined) {
    throw new ContainerStartError(
      `exec: "${executable}": executable file not found in $PATH (the image ${image.repository} maps: ${Object.keys(image.executables).join(', ') || 'nothing'})`,
    );
  }
  // The shim only loads into Node.js; any other executable runs without port or mount mapping.
  const isNode = path.basename(resolved).startsWith('node');
  return { command: resolved, args: isNode ? [`--import=${POD_SHIM_PATH}`, ...rest] : rest };
}

/**
 * The image's own files (its working directory, where its executables are) as mounts onto
 * themselves: on this machine they may lie under a path a volume is mounted at (a repository cloned
 * under /tmp, where the chart mounts an emptyDir), and a container's files must never be hidden by
 * its own volumes. The shim leaves a path under a mount's directory as it is.
 */
export function imageContentMounts(image: ImageMapping): [string, string][] {
  const directories = [
    image.workingDir,
    ...Object.values(image.executables).map((executable) => path.dirname(executable)),
  ];
  return [...new Set(directories)].map((directory) => [directory, directory]);
}

/** The environment variable that configures the pod shim. */
export function shimEnvironment(
  ports: ReadonlyMap<number, number>,
  mounts: readonly (readonly [string, string])[],
): Record<string, string> {
  const config = {
    ports: Object.fromEntries([...ports].map(([container, host]) => [String(container), host])),
    mounts,
  };
  return { [POD_SHIM_ENV]: JSON.stringify(config) };
}
