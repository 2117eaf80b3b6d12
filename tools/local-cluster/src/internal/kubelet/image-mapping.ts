/**
 * How the process kubelet runs an image: there are no images here, only builds on this machine. An
 * image maps to a working directory (the image's WORKDIR), its ENTRYPOINT, CMD and ENV, and the
 * executables its PATH would find.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface ImageMapping {
  /** The image's repository without registry, tag or digest: `kruise-ts` runs `ghcr.io/x/kruise-ts:0.1.0`. */
  readonly repository: string;
  readonly workingDir: string;
  readonly entrypoint: readonly string[];
  readonly cmd: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Executables by the name a container's command gives, as the image's PATH would resolve them. */
  readonly executables: Readonly<Record<string, string>>;
  /** Run once, before the first container of this image starts (a build). */
  readonly prepare?: () => Promise<void>;
}

/** `ghcr.io/org/kruise-ts:0.1.0@sha256:...` -> `kruise-ts`. */
export function imageRepository(image: string): string {
  const withoutDigest = image.split('@')[0] ?? image;
  const lastSegment = withoutDigest.slice(withoutDigest.lastIndexOf('/') + 1);
  const colon = lastSegment.indexOf(':');
  return colon === -1 ? lastSegment : lastSegment.slice(0, colon);
}

export function findImageMapping(image: string, mappings: readonly ImageMapping[]): ImageMapping | undefined {
  const repository = imageRepository(image);
  return mappings.find((mapping) => mapping.repository === repository);
}

/** ENTRYPOINT, CMD and ENV of a Dockerfile's last stage (exec form only, as ours uses). */
export interface DockerfileRuntime {
  readonly entrypoint: readonly string[];
  readonly cmd: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

function execForm(rest: string, line: string): string[] {
  const parsed: unknown = JSON.parse(rest);
  if (!Array.isArray(parsed) || !parsed.every((part): part is string => typeof part === 'string')) {
    throw new Error(`Dockerfile: only the exec form is supported: ${line}`);
  }
  return parsed;
}

/** `ENV A=1 B=2` (the key=value form only). */
function envPairs(parts: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of parts) {
    const at = pair.indexOf('=');
    if (at > 0) {
      env[pair.slice(0, at)] = pair.slice(at + 1);
    }
  }
  return env;
}

export function parseDockerfileRuntime(text: string): DockerfileRuntime {
  const stages = text.split(/^FROM\s/mu);
  const last = stages[stages.length - 1] ?? '';
  let entrypoint: string[] = [];
  let cmd: string[] = [];
  const env: Record<string, string> = {};
  for (const line of last.split('\n').map((raw) => raw.trim())) {
    const [instruction = '', ...restParts] = line.split(/\s+/u);
    const rest = restParts.join(' ');
    if (instruction === 'ENTRYPOINT') {
      entrypoint = execForm(rest, line);
    } else if (instruction === 'CMD') {
      cmd = execForm(rest, line);
    } else if (instruction === 'ENV') {
      Object.assign(env, envPairs(restParts));
    }
  }
  return { entrypoint, cmd, env };
}

const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

export interface RepositoryImageOptions {
  /** The repository to build from; this one by default. */
  readonly root?: string;
  /**
   * The image's WORKDIR: `prepare` builds into its `dist/`, and nothing else is in it, as in the image
   * (which holds only `/app/dist`). The repository root by default (`npm run build`'s `dist/`); a
   * directory of its own when other builds may rewrite the repository's `dist/` while a container of
   * this image starts (tests that run at the same time), which would crash that container.
   */
  readonly workingDir?: string;
}

/**
 * The `kruise-ts` image (charts/kruise-ts's default `image.repository`) as this repository's
 * `npm run build` output: the Dockerfile's ENTRYPOINT, CMD and ENV, `node` the Node.js running this
 * code. `prepare` runs the build.
 */
export function repositoryImage(options: RepositoryImageOptions = {}): ImageMapping {
  const root = options.root ?? REPOSITORY_ROOT;
  const workingDir = options.workingDir ?? root;
  const runtime = parseDockerfileRuntime(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
  const outDir = path.join(workingDir, 'dist');
  return {
    repository: 'kruise-ts',
    workingDir,
    ...runtime,
    executables: { node: process.execPath },
    prepare: async () => {
      await promisify(execFile)(
        process.execPath,
        ['--conditions=@kruise-ts/source', 'tools/bundle/src/cli.ts', '--out-dir', outDir],
        { cwd: root },
      );
    },
  };
}
