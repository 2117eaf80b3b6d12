/**
 * The package's two Go programs, built once per change of their sources into the kruise-ts binary cache
 * (`$KRUISE_TS_CACHE_DIR`, else `~/.cache/kruise-ts`; never inside the repository) and run from there.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { defaultCacheRoot, ensureTools } from '@kruise-ts/local-cluster';
import type { GoToolSpec } from '@kruise-ts/local-cluster';

const PROGRAMS = {
  goldenGo: { directory: '../golden-go/', binary: 'golden-go' },
  genFieldTable: { directory: '../../tools/gen-field-table/', binary: 'gen-field-table' },
} as const;

/** One of the package's Go programs. */
export type GoProgram = keyof typeof PROGRAMS;

/** Builds the program when its sources changed (a cold build compiles k8s.io/api: about a minute). */
export async function buildGoProgram(program: GoProgram): Promise<string> {
  const { directory, binary } = PROGRAMS[program];
  const spec: GoToolSpec = {
    name: `revision-${binary}`,
    version: 'v0',
    moduleDir: fileURLToPath(new URL(directory, import.meta.url)),
    packagePath: '.',
    binary,
    aliases: [],
    ldflags: ['-s', '-w'],
  };
  const tools = await ensureTools({ cacheRoot: defaultCacheRoot(), specs: [spec], log: (line) => process.stderr.write(`[revision] ${line}\n`) });
  const built = tools.get(spec.name);
  if (built === undefined) {
    throw new Error(`${binary} was not built`);
  }
  return built.path;
}

/** Runs a built program with `stdin` (and optional arguments) and returns its standard output. */
export async function runGoProgram(binaryPath: string, stdin = '', args: readonly string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(binaryPath, args, { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error === null) {
        resolve(stdout);
      } else {
        reject(new Error(`${binaryPath} failed: ${error.message}\n${stderr}`));
      }
    });
    // A program that does not read its input may exit before the write: its exit status tells, not EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(stdin);
  });
}
