/**
 * Loaded with `node --import` into every Node.js process the process kubelet starts: what a
 * container's own network and mount namespaces would give it, for processes that share this machine.
 *
 * - Ports: every pod's processes listen on this machine's addresses, so two replicas cannot both
 *   bind their container port. A `listen` on a declared container port binds the host port the
 *   kubelet chose for it instead (the EndpointSlices and probes use that port).
 * - Mounts: a path under a volume's `mountPath` (the ServiceAccount token under /var/run/secrets,
 *   a Secret volume, an emptyDir at /tmp) is read and written in the pod's directory instead.
 *
 * Only Node's own `fs`, `fs/promises` and `net.Server#listen` are mapped; a native addon or a child
 * process sees the machine as it is. The configuration comes in one environment variable, which
 * worker threads inherit (node passes `--import` to them too).
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import workerThreads from 'node:worker_threads';

import { POD_SHIM_ENV } from './pod-shim-config.ts';

interface ShimConfig {
  /** container port -> host port */
  readonly ports: Readonly<Record<string, number>>;
  /** [mountPath, directory on this machine], longest mountPath first */
  readonly mounts: readonly (readonly [string, string])[];
}

type Callable = (this: unknown, ...args: unknown[]) => unknown;

/** Functions of `fs` and `fs/promises` with a path argument, by the positions of their path arguments. */
const PATH_ARGUMENTS: Readonly<Record<string, readonly number[]>> = {
  access: [0],
  accessSync: [0],
  appendFile: [0],
  appendFileSync: [0],
  chmod: [0],
  chmodSync: [0],
  copyFile: [0, 1],
  copyFileSync: [0, 1],
  cp: [0, 1],
  cpSync: [0, 1],
  createReadStream: [0],
  createWriteStream: [0],
  exists: [0],
  existsSync: [0],
  lstat: [0],
  lstatSync: [0],
  mkdir: [0],
  mkdirSync: [0],
  mkdtemp: [0],
  mkdtempSync: [0],
  open: [0],
  openSync: [0],
  opendir: [0],
  opendirSync: [0],
  readFile: [0],
  readFileSync: [0],
  readdir: [0],
  readdirSync: [0],
  readlink: [0],
  readlinkSync: [0],
  realpath: [0],
  realpathSync: [0],
  rename: [0, 1],
  renameSync: [0, 1],
  rm: [0],
  rmSync: [0],
  rmdir: [0],
  rmdirSync: [0],
  stat: [0],
  statSync: [0],
  symlink: [1],
  symlinkSync: [1],
  truncate: [0],
  truncateSync: [0],
  unlink: [0],
  unlinkSync: [0],
  utimes: [0],
  utimesSync: [0],
  watch: [0],
  watchFile: [0],
  unwatchFile: [0],
  writeFile: [0],
  writeFileSync: [0],
};

function readConfig(): ShimConfig | undefined {
  // Kept in the environment: worker threads (the apps' admission thread) load this shim too, with a copy of it.
  const text = process.env[POD_SHIM_ENV];
  if (text === undefined) {
    return undefined;
  }
  return JSON.parse(text) as ShimConfig;
}

/** The path on this machine for `value` when it lies under a mount; anything else unchanged. */
export function mapMountedPath(value: unknown, mounts: ShimConfig['mounts']): unknown {
  const target = value instanceof URL && value.protocol === 'file:' ? decodeURIComponent(value.pathname) : value;
  if (typeof target !== 'string') {
    return value;
  }
  // fs functions call each other (readFileSync calls openSync): a path already mapped stays as it is.
  if (mounts.some(([, directory]) => target === directory || target.startsWith(`${directory}/`))) {
    return value;
  }
  for (const [mountPath, directory] of mounts) {
    if (target === mountPath || target.startsWith(`${mountPath}/`)) {
      return directory + target.slice(mountPath.length);
    }
  }
  return value;
}

function wrapPathFunctions(target: Record<string, unknown>, mounts: ShimConfig['mounts']): void {
  for (const [name, positions] of Object.entries(PATH_ARGUMENTS)) {
    const original = target[name];
    if (typeof original !== 'function') {
      continue;
    }
    const call = original as Callable;
    const wrapper = function (this: unknown, ...args: unknown[]): unknown {
      for (const position of positions) {
        args[position] = mapMountedPath(args[position], mounts);
      }
      return call.apply(this, args);
    };
    // realpathSync.native, exists' promisified form: keep what hangs off the function.
    Object.assign(wrapper, original);
    target[name] = wrapper;
  }
}

/** `listen`'s arguments with a declared container port replaced by its host port. */
export function mapListenArguments(args: readonly unknown[], ports: ShimConfig['ports']): unknown[] {
  const [first, ...rest] = args;
  const mapped = (port: unknown): unknown => {
    const key = typeof port === 'number' || typeof port === 'string' ? String(port) : undefined;
    return key === undefined ? port : (ports[key] ?? port);
  };
  if (typeof first === 'object' && first !== null && 'port' in first) {
    return [{ ...first, port: mapped(first.port) }, ...rest];
  }
  return [mapped(first), ...rest];
}

/**
 * Worker threads started with their own `execArgv` (the apps' admission thread) would not load this
 * shim: add it, so a thread's listen is mapped as the main thread's is.
 */
function shimWorkers(): void {
  const shim = `--import=${import.meta.url}`;
  const Base = workerThreads.Worker;
  class ShimmedWorker extends Base {
    constructor(filename: string | URL, options: workerThreads.WorkerOptions = {}) {
      const execArgv = options.execArgv ?? process.execArgv;
      super(filename, { ...options, execArgv: execArgv.includes(shim) ? execArgv : [shim, ...execArgv] });
    }
  }
  workerThreads.Worker = ShimmedWorker;
}

/** The pod's hostname (its name), as a UTS namespace would give it: the apps name their Lease holder after it. */
function shimHostname(): void {
  const hostname = process.env['HOSTNAME'];
  if (hostname !== undefined && hostname !== '') {
    os.hostname = () => hostname;
  }
}

function install(config: ShimConfig): void {
  shimWorkers();
  shimHostname();
  if (config.mounts.length > 0) {
    wrapPathFunctions(fs, config.mounts);
    wrapPathFunctions(fs.promises, config.mounts);
  }
  syncBuiltinESMExports();
  // Held as a plain function (applied with the server as `this` below), not as a method.
  const listen = Reflect.get(net.Server.prototype, 'listen') as Callable;
  const ports = config.ports;
  const patched = function (this: unknown, ...args: unknown[]): unknown {
    return listen.apply(this, mapListenArguments(args, ports));
  };
  net.Server.prototype.listen = patched as unknown as typeof net.Server.prototype.listen;
}

const config = readConfig();
if (config !== undefined) {
  install(config);
}
