/**
 * Where the `openkruise` contender finds kruise-manager (a binary built from an OpenKruise checkout,
 * never part of this repository) and the checkout itself (its CRDs and webhook configurations):
 * `--openkruise-manager` / `--openkruise-source`, else the environment, else the defaults below.
 */
import { accessSync, constants, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The release the contender is written against (its flags, environment and webhook configurations). */
export const OPENKRUISE_VERSION = 'v1.9.0';
export const OPENKRUISE_MANAGER_ENV = 'KRUISE_TS_BENCH_OPENKRUISE_MANAGER';
export const OPENKRUISE_SOURCE_ENV = 'KRUISE_TS_BENCH_OPENKRUISE_SOURCE';
export const DEFAULT_OPENKRUISE_MANAGER = path.join(
  os.homedir(),
  '.cache',
  'kruise-ts',
  'bin',
  `kruise-manager-${OPENKRUISE_VERSION}`,
  'manager',
);
export const DEFAULT_OPENKRUISE_SOURCE = '/tmp/kruise-src';

export interface OpenKruisePaths {
  /** The kruise-manager binary. */
  readonly manager: string;
  /** An OpenKruise checkout at OPENKRUISE_VERSION. */
  readonly source: string;
}

/** The flags' values win over the environment's, which win over the defaults. */
export function resolveOpenKruisePaths(
  flags: { readonly manager?: string | undefined; readonly source?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): OpenKruisePaths {
  return {
    manager: path.resolve(flags.manager ?? env[OPENKRUISE_MANAGER_ENV] ?? DEFAULT_OPENKRUISE_MANAGER),
    source: path.resolve(flags.source ?? env[OPENKRUISE_SOURCE_ENV] ?? DEFAULT_OPENKRUISE_SOURCE),
  };
}

/** The files of a checkout the contender reads. */
export function openKruiseSourceFiles(source: string): {
  readonly crdDir: string;
  readonly webhookManifests: string;
  readonly webhookPatch: string;
} {
  return {
    crdDir: path.join(source, 'config', 'crd', 'bases'),
    webhookManifests: path.join(source, 'config', 'webhook', 'manifests.yaml'),
    webhookPatch: path.join(source, 'config', 'webhook', 'patch_manifests.yaml'),
  };
}

const HOW_TO_GET = `see tools/bench/README.md, "OpenKruise's kruise-manager"`;

/**
 * What is missing, as an error message naming the flag and the environment variable; undefined when
 * both are there. `usable(file, executable)` says whether a path exists (and may be executed).
 */
export function missingOpenKruisePaths(
  paths: OpenKruisePaths,
  usable: (file: string, executable: boolean) => boolean,
): string | undefined {
  if (!usable(paths.manager, true)) {
    return `--openkruise-manager: no executable kruise-manager at ${paths.manager} (flag, or $${OPENKRUISE_MANAGER_ENV}; ${HOW_TO_GET})`;
  }
  const files = openKruiseSourceFiles(paths.source);
  const missing = [files.crdDir, files.webhookManifests, files.webhookPatch].find((file) => !usable(file, false));
  if (missing !== undefined) {
    return `--openkruise-source: ${paths.source} is not an OpenKruise ${OPENKRUISE_VERSION} checkout (no ${path.relative(paths.source, missing)}; flag, or $${OPENKRUISE_SOURCE_ENV}; ${HOW_TO_GET})`;
  }
  return undefined;
}

/** `usable` for missingOpenKruisePaths, on this machine's file system. */
export function fileUsable(file: string, executable: boolean): boolean {
  try {
    accessSync(file, executable ? constants.X_OK : constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** The CRD files among `names` (a directory's entries), in `dir`, in a stable order. */
export function crdFilesOf(dir: string, names: readonly string[]): string[] {
  return names
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** Every CRD of the checkout, as OpenKruise's installation applies them all. */
export function openKruiseCrdFiles(source: string): string[] {
  const { crdDir } = openKruiseSourceFiles(source);
  return crdFilesOf(crdDir, readdirSync(crdDir));
}
