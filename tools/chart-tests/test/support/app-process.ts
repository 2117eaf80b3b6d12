/**
 * Runs an app the way the chart's container runs it (`node <entrypoint> <flags>`, the entrypoint being
 * the app's bundle `dist/<app>.mjs`, which this helper builds once per test process into a directory
 * of its own), but on this machine: the local control plane's kwok nodes run no containers.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';

import { temporaryBundles } from '@kruise-ts/bundle';

import { REPOSITORY_ROOT } from '../../src/index.ts';

/** A running app process and what it printed so far. */
export interface AppProcess extends AsyncDisposable {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** stdout and stderr so far. */
  output(): string;
  readonly exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Flags to run a Deployment's container args out of the cluster: the probe and metrics servers on free
 * loopback ports instead of the container ports (which may be taken on this machine), the webhook
 * server (every app with a validation webhook has one) on a free port (a test that calls it sets its
 * own with withFlag), everything else as the chart rendered it.
 */
export function outOfClusterFlags(flags: readonly string[]): string[] {
  return flags.map((flag) => {
    if (flag.startsWith('--metrics-bind-address=')) {
      return '--metrics-bind-address=127.0.0.1:0';
    }
    if (flag.startsWith('--health-probe-bind-address=')) {
      return '--health-probe-bind-address=127.0.0.1:0';
    }
    if (flag.startsWith('--webhook-port=')) {
      return '--webhook-port=0';
    }
    return flag;
  });
}

/**
 * `flags` with the value of `--<name>=` replaced (the flag appended when absent): for the few flags a
 * process on this machine must set differently from a pod, such as a port other tests may hold.
 */
export function withFlag(flags: readonly string[], name: string, value: string): string[] {
  const prefix = `--${name}=`;
  return flags.some((flag) => flag.startsWith(prefix))
    ? flags.map((flag) => (flag.startsWith(prefix) ? `${prefix}${value}` : flag))
    : [...flags, `${prefix}${value}`];
}

/** A TCP port free on every interface (for a server that listens on all of them). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return port;
}

/** The file of the chart's entrypoint `dist/<name>.mjs` among this test process's bundles. */
async function bundledFile(entrypoint: string): Promise<string> {
  const name = /^dist\/(.+)\.mjs$/.exec(entrypoint)?.[1];
  const file = name === undefined ? undefined : (await temporaryBundles())[name];
  if (file === undefined) {
    throw new Error(`the chart's entrypoint ${entrypoint} is not a bundle in dist/`);
  }
  return file;
}

/**
 * Starts `node ...nodeFlags <entrypoint> ...flags` in the repository root, with the bundle the image
 * would hold; `nodeFlags` are the container command's arguments after `node`, when a test takes them.
 */
export async function startApp(
  entrypoint: string,
  flags: readonly string[],
  nodeFlags: readonly string[] = [],
): Promise<AppProcess> {
  const child = spawn(process.execPath, [...nodeFlags, await bundledFile(entrypoint), ...flags], {
    cwd: REPOSITORY_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBECONFIG: '' },
  });
  let output = '';
  const append = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
    });
  });
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
    }
    return exited;
  };
  return {
    child,
    output: () => output,
    exited,
    stop,
    [Symbol.asyncDispose]: async () => {
      await stop();
    },
  };
}
