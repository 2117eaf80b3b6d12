/**
 * Builds the JavaScript the image runs: one ES module per process entry (each app's main and the
 * all-in-one launcher), with the workspace packages and their dependencies inlined. Running the
 * TypeScript sources directly costs a Node.js process ~45 MiB more resident memory (the type
 * stripper's WebAssembly memory, one module record and compiled function per source file) and 1.3 s
 * more start-up; see docs/benchmarks.md, "Memory and idle CPU".
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'rolldown';

/** The repository root; entries and the default output directory are relative to it. */
export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every process the image can start, by output name (`dist/<name>.mjs`). */
export const PROCESS_ENTRIES: Readonly<Record<string, string>> = {
  cloneset: 'apps/cloneset/src/main.ts',
  'advanced-statefulset': 'apps/advanced-statefulset/src/main.ts',
  sidecarset: 'apps/sidecarset/src/main.ts',
  broadcastjob: 'apps/broadcastjob/src/main.ts',
  'kruise-ts': 'packages/launcher/src/cli.ts',
};

export interface BundleOptions {
  /** Output directory (created); `dist` of the repository by default. */
  readonly outDir?: string | undefined;
  /** More entries by output name, e.g. a benchmark's preloaded hook; paths relative to the repository. */
  readonly extraEntries?: Readonly<Record<string, string>> | undefined;
}

/** Bundles every process entry into `outDir`; returns the files written, by entry name. */
export async function bundleApps(options: BundleOptions = {}): Promise<Record<string, string>> {
  const outDir = path.resolve(REPOSITORY_ROOT, options.outDir ?? 'dist');
  const entries = { ...PROCESS_ENTRIES, ...options.extraEntries };
  const input = Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(REPOSITORY_ROOT, file)]));
  await build({
    input,
    platform: 'node',
    // The workspace packages' sources, as `--conditions=@kruise-ts/source` resolves them when run from source.
    resolve: { conditionNames: ['@kruise-ts/source', 'node', 'import', 'default'] },
    logLevel: 'warn',
    output: { dir: outDir, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
  });
  return Object.fromEntries(Object.keys(entries).map((name) => [name, path.join(outDir, `${name}.mjs`)]));
}

/** Bundles built by this process, by their extra entries (see {@link temporaryBundles}). */
const temporary = new Map<string, Promise<Record<string, string>>>();

/**
 * The bundles (and `extraEntries`), built once per process into a temporary directory of their own:
 * for tests and benchmarks that run what the image runs, several of which may build at the same
 * time (so never into the repository's `dist/`).
 */
export function temporaryBundles(extraEntries: Readonly<Record<string, string>> = {}): Promise<Record<string, string>> {
  const key = JSON.stringify(extraEntries);
  let built = temporary.get(key);
  if (built === undefined) {
    built = mkdtemp(path.join(tmpdir(), 'kruise-ts-dist-')).then((outDir) => bundleApps({ outDir, extraEntries }));
    temporary.set(key, built);
  }
  return built;
}
