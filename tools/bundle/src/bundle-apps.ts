/**
 * Builds the JavaScript the image runs: one ES module per process entry (each app's main and the
 * all-in-one launcher), with the workspace packages and their dependencies inlined. Running the
 * TypeScript sources directly costs a Node.js process ~45 MiB more resident memory (the type
 * stripper's WebAssembly memory, one module record and compiled function per source file) and 1.3 s
 * more start-up; see docs/benchmarks.md, "Memory and idle CPU".
 */
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
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
  'kruise-ts': 'tools/launcher/src/cli.ts',
};

/**
 * Modules that a process starts on a thread of its own, by output name (`dist/<name>.mjs`, next to
 * the processes' bundles, where `threadModuleUrl` of @kruise-ts/webhook looks for them): the
 * admission thread of the webhook server and the handler modules it imports.
 */
export const THREAD_ENTRIES: Readonly<Record<string, string>> = {
  'admission-thread': 'packages/webhook/src/thread/admission-thread-main.ts',
  'sidecarset-pod-injection': 'apps/sidecarset/src/webhook/pod-injection-thread.ts',
};

/**
 * Command-line tools, by output name: not in the image; `npx kruise-ts` and the kubectl plugin run
 * this bundle when it exists (apps/cli/bin/kruise-ts.mjs).
 */
export const TOOL_ENTRIES: Readonly<Record<string, string>> = {
  'kruise-ts-cli': 'apps/cli/src/main.ts',
};

/**
 * Executables written next to the bundles, by file name: the bundle each starts. `kubectl-kruise_ts`
 * on PATH (a symlink to it) makes `kubectl kruise-ts` work.
 */
export const TOOL_LAUNCHERS: Readonly<Record<string, string>> = {
  'kubectl-kruise_ts': 'kruise-ts-cli',
};

/**
 * A tool is built on its own with the workspace's modules taken as free of side effects, so that a
 * name imported through a package's index brings only the modules it needs: otherwise every module of
 * @kruise-ts/api (zod schemas built at load) and the runtime (metrics, logging) would come along, and
 * the tool would start in 0.5 s instead of a fraction of it. What those modules do at load (zod
 * schemas recording CRD metadata, for instance) serves only code the tool does not import, and none
 * of them is imported for its side effects alone.
 */
const WORKSPACE_SOURCES = ['packages', 'apps', 'tools'].map((folder) => path.join(REPOSITORY_ROOT, folder) + path.sep);
const hasSideEffects = (id: string): boolean =>
  !WORKSPACE_SOURCES.some((folder) => id.startsWith(folder)) || id.includes(`${path.sep}node_modules${path.sep}`);

export interface BundleOptions {
  /** Output directory (created); `dist` of the repository by default. */
  readonly outDir?: string | undefined;
  /** More entries by output name, e.g. a benchmark's preloaded hook; paths relative to the repository. */
  readonly extraEntries?: Readonly<Record<string, string>> | undefined;
}

/** Bundles every process entry and tool into `outDir`; returns the files written, by entry name. */
export async function bundleApps(options: BundleOptions = {}): Promise<Record<string, string>> {
  const outDir = path.resolve(REPOSITORY_ROOT, options.outDir ?? 'dist');
  const entries = { ...PROCESS_ENTRIES, ...options.extraEntries };
  await bundle(entries, outDir, true);
  // A thread loads only what its module uses, as a tool does: the whole API package's schemas in the
  // admission thread cost its isolate about 10 MiB (docs/benchmarks.md, issue 31).
  await bundle(THREAD_ENTRIES, outDir, hasSideEffects);
  await bundle(TOOL_ENTRIES, outDir, hasSideEffects);
  await writeLaunchers(outDir);
  return Object.fromEntries(
    [...Object.keys(entries), ...Object.keys(THREAD_ENTRIES), ...Object.keys(TOOL_ENTRIES)].map((name) => [
      name,
      path.join(outDir, `${name}.mjs`),
    ]),
  );
}

async function bundle(
  entries: Readonly<Record<string, string>>,
  outDir: string,
  moduleSideEffects: boolean | ((id: string) => boolean),
): Promise<void> {
  const input = Object.fromEntries(
    Object.entries(entries).map(([name, file]) => [name, path.join(REPOSITORY_ROOT, file)]),
  );
  await build({
    input,
    platform: 'node',
    // The workspace packages' sources, as `--conditions=@kruise-ts/source` resolves them when run from source.
    resolve: { conditionNames: ['@kruise-ts/source', 'node', 'import', 'default'] },
    treeshake: { moduleSideEffects },
    logLevel: 'warn',
    // V8 keeps every module's source text for as long as the process runs (functions compile lazily
    // from it): ASCII only, so that it is stored with one byte per character rather than two (one
    // dash or "×" in a comment doubles a whole chunk), and without JSDoc, which no one reads there.
    // Licence comments stay.
    output: {
      dir: outDir,
      format: 'esm',
      entryFileNames: '[name].mjs',
      chunkFileNames: 'chunks/[name]-[hash].mjs',
      charset: 'ascii',
      comments: { legal: true, annotation: false, jsdoc: false },
    },
  });
}

/**
 * Each launcher runs its bundle with the Node that built it (the project's Node 24, whatever `node` is
 * on PATH) and V8's compile cache: compiling the bundle (mostly undici) is a good part of a
 * command's start-up.
 */
async function writeLaunchers(outDir: string): Promise<void> {
  for (const [name, entry] of Object.entries(TOOL_LAUNCHERS)) {
    const file = path.join(outDir, name);
    const script = [
      `#!${process.execPath}`,
      '// Written by `npm run build`.',
      "process.getBuiltinModule('node:module').enableCompileCache?.();",
      `await import('./${entry}.mjs');`,
      '',
    ];
    await writeFile(file, script.join('\n'));
    await chmod(file, 0o755);
  }
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
