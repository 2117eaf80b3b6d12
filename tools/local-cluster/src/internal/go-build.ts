import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { parseGoBuildLine, withBuildProgress } from './build-progress.ts';
import type { ProgressTerminal } from './build-progress.ts';
import { LocalClusterError } from './errors.ts';
import { withDirectoryLock } from './file-lock.ts';
import { runCommand } from './run-command.ts';
import type { GoToolSpec } from './versions.ts';

export interface EnsureToolsOptions {
  /** Root of the binary cache; binaries land in `<cacheRoot>/bin/<name>-<version>-<hash>/`. */
  readonly cacheRoot: string;
  readonly specs: readonly GoToolSpec[];
  /** The Go command; `go` from PATH by default. */
  readonly goBinary?: string;
  readonly log?: (line: string) => void;
  /**
   * A terminal to show a running build's progress on, as one line redrawn in place; without one (or
   * when it is not a TTY) the progress goes to `log` every 15 seconds.
   */
  readonly progressTerminal?: ProgressTerminal | undefined;
  /** Upper bound for one tool's build. A cold Kubernetes build takes about 5 minutes on 2 cores. */
  readonly buildTimeoutMs?: number;
}

/** A tool binary ready to run. */
export interface BuiltTool {
  readonly name: string;
  readonly version: string;
  /** Path of the binary; aliases sit next to it in the same directory. */
  readonly path: string;
  readonly directory: string;
  /** Seconds spent building now, or undefined when it came from the cache. */
  readonly buildSeconds: number | undefined;
}

const execFileAsync = promisify(execFile);
const DEFAULT_BUILD_TIMEOUT_MS = 45 * 60 * 1000;
const GO_MISSING_HINT =
  'the Go toolchain (1.26 or newer) is not on PATH; install it from https://go.dev/dl or set the goBinary option';

/**
 * Builds each tool only when its binary is missing from the cache. The cache key covers the tool's
 * version and the exact inputs (go.mod, go.sum, Go sources, ldflags), so a version bump or a changed
 * module builds anew and never reuses a stale binary; nothing is written inside the repository.
 */
export async function ensureTools(options: EnsureToolsOptions): Promise<Map<string, BuiltTool>> {
  const tools = new Map<string, BuiltTool>();
  for (const spec of options.specs) {
    tools.set(spec.name, await ensureTool(spec, options));
  }
  return tools;
}

async function ensureTool(spec: GoToolSpec, options: EnsureToolsOptions): Promise<BuiltTool> {
  const directory = path.join(options.cacheRoot, 'bin', `${spec.name}-${spec.version}-${await inputsHash(spec)}`);
  const binaryPath = path.join(directory, spec.binary);
  const cached = { name: spec.name, version: spec.version, path: binaryPath, directory, buildSeconds: undefined };
  if (existsSync(binaryPath)) {
    return cached;
  }
  return withDirectoryLock(`${directory}.lock`, async () => {
    // Another process may have finished the same build while this one waited for the lock.
    if (existsSync(binaryPath)) {
      return cached;
    }
    const buildSeconds = await buildTool(spec, directory, options);
    return { ...cached, buildSeconds };
  });
}

async function buildTool(spec: GoToolSpec, directory: string, options: EnsureToolsOptions): Promise<number> {
  const logDir = path.join(options.cacheRoot, 'logs');
  await mkdir(logDir, { recursive: true });
  const staging = `${directory}.partial-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  await assertGoVersion(spec, options.goBinary ?? 'go');
  const started = performance.now();
  options.log?.(`building ${spec.name} ${spec.version} with Go (only when missing from the cache)...`);
  const progress = { tool: spec.name, log: options.log ?? (() => undefined), terminal: options.progressTerminal };
  await withBuildProgress(progress, (onStderrLine) =>
    runCommand({
      component: `go build ${spec.name}`,
      command: options.goBinary ?? 'go',
      args: goBuildArgs(spec, path.join(staging, spec.binary)),
      cwd: spec.moduleDir,
      env: { ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0', GOFLAGS: '' },
      logFile: path.join(logDir, `build-${spec.name}-${spec.version}.log`),
      timeoutMs: options.buildTimeoutMs ?? DEFAULT_BUILD_TIMEOUT_MS,
      missingHint: GO_MISSING_HINT,
      onStderrLine,
      omitFromLog: isPackageLine,
    }),
  );
  for (const alias of spec.aliases) {
    await symlink(spec.binary, path.join(staging, alias));
  }
  await rm(directory, { recursive: true, force: true });
  await rename(staging, directory);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  options.log?.(`built ${spec.name} ${spec.version} in ${String(seconds)}s -> ${directory}`);
  return seconds;
}

function isPackageLine(line: string): boolean {
  return parseGoBuildLine(line)?.kind === 'package';
}

const MINIMUM_GO = [1, 26] as const;

/**
 * kwok and helm declare `go 1.26.0`; with an older toolchain (and GOTOOLCHAIN=local, so that Go never
 * downloads another one) their build would fail deep in its log. Say it up front instead.
 */
async function assertGoVersion(spec: GoToolSpec, goBinary: string): Promise<void> {
  let version: string;
  try {
    const { stdout } = await execFileAsync(goBinary, ['env', 'GOVERSION'], {
      timeout: 30_000,
      env: { ...process.env, GOTOOLCHAIN: 'local' },
    });
    version = stdout.trim();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new LocalClusterError(
      missing ? `cannot run ${goBinary}: ${GO_MISSING_HINT}` : `cannot run ${goBinary} env GOVERSION`,
      { component: `go build ${spec.name}` },
      { cause: error },
    );
  }
  if (!isGoAtLeast(version, MINIMUM_GO)) {
    throw new LocalClusterError(
      `Go ${MINIMUM_GO.join('.')} or newer is needed, but ${goBinary} reports ${JSON.stringify(version)}`,
      { component: `go build ${spec.name}` },
    );
  }
}

/** True when a `go env GOVERSION` string (`go1.26.8`, `go1.27rc1`) is at least `minimum`. */
export function isGoAtLeast(version: string, minimum: readonly [number, number]): boolean {
  const [major = 0, minor = 0] = (/^go(\d+)\.(\d+)/.exec(version)?.slice(1) ?? []).map(Number);
  return major > minimum[0] || (major === minimum[0] && minor >= minimum[1]);
}

/**
 * The `go build` command line for one tool; exported for tests. `-v` names each package as it is
 * compiled, which is what the progress line counts; it is not part of the cache key.
 */
export function goBuildArgs(spec: GoToolSpec, output: string): string[] {
  return [
    'build',
    '-v',
    '-trimpath',
    '-buildvcs=false',
    '-mod=readonly',
    '-ldflags',
    spec.ldflags.join(' '),
    '-o',
    output,
    spec.packagePath,
  ];
}

async function inputsHash(spec: GoToolSpec): Promise<string> {
  const hash = createHash('sha256');
  let entries: string[];
  try {
    entries = (await readdir(spec.moduleDir)).filter(
      (name) => name === 'go.mod' || name === 'go.sum' || name.endsWith('.go'),
    );
  } catch (error) {
    throw new LocalClusterError(
      `tools module directory ${spec.moduleDir} cannot be read`,
      { component: `go build ${spec.name}` },
      { cause: error },
    );
  }
  for (const name of entries.sort()) {
    hash
      .update(name)
      .update('\0')
      .update(await readFile(path.join(spec.moduleDir, name)))
      .update('\0');
  }
  hash.update(spec.packagePath).update('\0').update(spec.ldflags.join(' '));
  return hash.digest('hex').slice(0, 12);
}
