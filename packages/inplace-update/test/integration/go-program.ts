/**
 * The package's Go golden program (test/golden-go), built once per change of its sources into the
 * kruise-ts binary cache (`$KRUISE_TS_CACHE_DIR`, else `~/.cache/kruise-ts`; never inside the
 * repository) and run from there.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { defaultCacheRoot, ensureTools } from '@kruise-ts/local-cluster';
import type { GoToolSpec } from '@kruise-ts/local-cluster';

/** Builds the golden program when its sources changed (a cold build compiles k8s.io/api: about a minute). */
export async function buildGoldenProgram(): Promise<string> {
  const spec: GoToolSpec = {
    name: 'inplace-update-golden-go',
    version: 'v0',
    moduleDir: fileURLToPath(new URL('../golden-go/', import.meta.url)),
    packagePath: '.',
    binary: 'golden-go',
    aliases: [],
    ldflags: ['-s', '-w'],
  };
  const tools = await ensureTools({ cacheRoot: defaultCacheRoot(), specs: [spec], log: (line) => process.stderr.write(`[inplace-update] ${line}\n`) });
  const built = tools.get(spec.name);
  if (built === undefined) {
    throw new Error('golden-go was not built');
  }
  return built.path;
}

/** Runs the built program with `stdin` and returns its standard output. */
export async function runGoldenProgram(binaryPath: string, stdin: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(binaryPath, [], { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error === null) {
        resolve(stdout);
      } else {
        reject(new Error(`${binaryPath} failed: ${error.message}\n${stderr}`));
      }
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(stdin);
  });
}
