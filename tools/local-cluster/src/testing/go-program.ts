/**
 * Small Go programs of the tests (golden programs that compute with OpenKruise's and Kubernetes' own
 * code): built once per change of their sources into the kruise-ts binary cache (`$KRUISE_TS_CACHE_DIR`,
 * else `~/.cache/kruise-ts`; never inside the repository), with the same builder, cache key and lock
 * as the control plane's tools, and run from there.
 */
import { execFile } from 'node:child_process';

import { ensureTools } from '../internal/go-build.ts';
import { defaultCacheRoot } from '../internal/options.ts';

export interface GoProgramSpec {
  /** Cache name, unique across the repository (e.g. `revision-golden-go`). */
  readonly name: string;
  /** The Go module's directory (its `main` package). */
  readonly moduleDir: string;
  /** The binary's file name. */
  readonly binary: string;
  /** Prefix of the build's progress lines on stderr. */
  readonly logPrefix: string;
}

/** Builds the program when its sources changed (a cold build compiling k8s.io/api takes about a minute); returns its path. */
export async function buildGoProgram(program: GoProgramSpec): Promise<string> {
  const spec = {
    name: program.name,
    version: 'v0',
    moduleDir: program.moduleDir,
    packagePath: '.',
    binary: program.binary,
    aliases: [],
    ldflags: ['-s', '-w'],
  };
  const tools = await ensureTools({
    cacheRoot: defaultCacheRoot(),
    specs: [spec],
    log: (line) => process.stderr.write(`[${program.logPrefix}] ${line}\n`),
  });
  const built = tools.get(spec.name);
  if (built === undefined) {
    throw new Error(`${program.binary} was not built`);
  }
  return built.path;
}

/** Runs a built program with `stdin` (and optional arguments) and returns its standard output. */
export async function runGoProgram(binaryPath: string, stdin = '', args: readonly string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      binaryPath,
      args,
      { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve(stdout);
        } else {
          reject(new Error(`${binaryPath} failed: ${error.message}\n${stderr}`));
        }
      },
    );
    // A program that does not read its input may exit before the write: its exit status tells, not EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(stdin);
  });
}
