import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CLUSTER_TOOLS, clusterLayout, startComponents } from './cluster-starter.ts';
import type { ClusterLayout, ClusterPorts, LaunchedComponent } from './cluster-starter.ts';
import { LocalClusterError } from './errors.ts';
import { ensureTools } from './go-build.ts';
import type { BuiltTool } from './go-build.ts';
import { createFakeNodes } from './node-registration.ts';
import { createDefaultStorageClass } from './storage.ts';
import { resolveClusterOptions } from './options.ts';
import type { ComponentName, LocalClusterOptions, ResolvedClusterOptions } from './options.ts';
import { createClusterPki } from './pki.ts';
import { allocatePorts } from './ports.ts';
import { ProcessGroup, stopRecordedProcesses } from './process-group.ts';
import type { StartedProcess } from './process-group.ts';
import { isOurProcess, isProcessAlive } from './process-liveness.ts';
import { httpProbe, waitUntilReady } from './readiness.ts';
import { readState, stateFile, writeState } from './state.ts';
import type { ClusterState, ComponentRecord } from './state.ts';
import { defaultToolSpecs } from './versions.ts';

/** A running local control plane. */
export interface LocalCluster extends AsyncDisposable {
  readonly name: string;
  readonly runDir: string;
  /** Admin kubeconfig (token of a `system:masters` user), with inline CA data. */
  readonly kubeconfigPath: string;
  /** `https://127.0.0.1:<port>` */
  readonly server: string;
  /** kube-apiserver's JSON audit log; written only when the cluster was started with `auditPolicy`. */
  readonly auditLogPath: string;
  /** True when an already running cluster was returned (`reuse`); stop() then leaves it running. */
  readonly reused: boolean;
  readonly components: readonly ComponentRecord[];
  /** The cluster's tool binaries by tool name (`kube`, `etcd`, `kwok`). */
  readonly binaries: ReadonlyMap<string, string>;
  /** Seconds spent building tools in this call (0 when all came from the cache). */
  readonly buildSeconds: number;
  /** Seconds from the first component's start to the cluster being ready. */
  readonly startSeconds: number;
  /**
   * Stops one component and starts it again with the same flags and ports, returning once it is
   * ready again: for tests of what controllers do when, say, kube-apiserver restarts. Only for a
   * cluster this call started (not a reused one).
   */
  restartComponent(name: ComponentName): Promise<void>;
  /** Stops every process this cluster started and removes its state; idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts a real control plane on 127.0.0.1 with free ports: etcd, kube-apiserver, kube-controller-
 * manager, kube-scheduler and kwok with fake nodes, building any missing binary first. Returns once
 * the fake nodes are Ready. Any failure stops what was started and throws a LocalClusterError that
 * names the component, its log file and the log's last lines.
 */
export async function startLocalCluster(input: LocalClusterOptions = {}): Promise<LocalCluster> {
  const options = resolveClusterOptions(input);
  const layout = clusterLayout(options.runDir);
  const tools = await ensureTools({
    cacheRoot: options.cacheRoot,
    specs: defaultToolSpecs().filter((spec) => CLUSTER_TOOLS.has(spec.name)),
    log: options.log,
    progressTerminal: options.progressTerminal,
    ...(options.goBinary === undefined ? {} : { goBinary: options.goBinary }),
  });
  const existing = await inspectExisting(layout.runDir);
  if (existing !== undefined) {
    return handleExisting(existing, options, tools);
  }
  return startFresh(options, layout, tools);
}

type Existing =
  { readonly kind: 'running'; readonly state: ClusterState } | { readonly kind: 'stale'; readonly state: ClusterState };

async function inspectExisting(runDir: string): Promise<Existing | undefined> {
  const state = await readState(runDir);
  if (state === undefined) {
    return undefined;
  }
  const alive = state.components.every((c) => isOurProcess(c.pid, c.command));
  const ownerAlive = state.ownerPid === null || isProcessAlive(state.ownerPid);
  const serving = alive && ownerAlive && state.ready && (await apiServerServes(state));
  return { kind: serving ? 'running' : 'stale', state };
}

async function apiServerServes(state: ClusterState): Promise<boolean> {
  const kubeconfig = await readFile(state.kubeconfigPath, 'utf8').catch(() => '');
  const caData = /certificate-authority-data: (\S+)/.exec(kubeconfig)?.[1];
  return (
    caData !== undefined &&
    httpProbe(`${state.server}/readyz`, { caPem: Buffer.from(caData, 'base64').toString('utf8') })
  );
}

async function handleExisting(
  existing: Existing,
  options: ResolvedClusterOptions,
  tools: ReadonlyMap<string, BuiltTool>,
): Promise<LocalCluster> {
  const { state } = existing;
  if (existing.kind === 'stale') {
    options.log(`cleaning up a stale cluster in ${state.runDir}`);
    await stopRecordedProcesses(state.components);
    return startFresh(options, clusterLayout(options.runDir), tools);
  }
  if (!options.reuse) {
    throw new LocalClusterError(
      `a cluster is already running in ${state.runDir} (apiserver ${state.server}); use it with KUBECONFIG=${state.kubeconfigPath}, or stop it with \`npm run cluster:down\``,
      { component: 'local-cluster' },
    );
  }
  options.log(`reusing the running cluster in ${state.runDir} (apiserver ${state.server})`);
  const restart = (): Promise<void> =>
    Promise.reject(
      new LocalClusterError('cannot restart a component of a reused cluster', { component: 'local-cluster' }),
    );
  return clusterHandle({
    state,
    tools,
    reused: true,
    timings: { buildSeconds: 0, startSeconds: 0 },
    stop: () => Promise.resolve(),
    restart,
  });
}

async function startFresh(
  options: ResolvedClusterOptions,
  layout: ClusterLayout,
  tools: ReadonlyMap<string, BuiltTool>,
): Promise<LocalCluster> {
  await rm(layout.runDir, { recursive: true, force: true });
  const [pki, ports] = await Promise.all([createClusterPki(layout.pkiDir), choosePorts(options)]);
  const [group, launched] = [new ProcessGroup(), new Map<ComponentName, LaunchedComponent>()];
  const state = initialState(options, layout, ports);
  const stop = onceOnly(async () => {
    signals.dispose();
    await group.stopAll();
    await rm(stateFile(layout.runDir), { force: true });
    await rm(layout.etcdDataDir, { recursive: true, force: true });
  });
  const signals = installSignalHandlers({ options, group, stop });
  const started = performance.now();
  try {
    await startComponents({
      options,
      layout,
      tools,
      pki,
      ports,
      group,
      launched,
      onStarted: recordStarted(state, options),
    });
    await createFakeNodes({ kubeconfigPath: layout.kubeconfigPath, options, kwok: group.processes.at(-1) });
    await createDefaultStorageClass(layout.kubeconfigPath);
  } catch (error) {
    await stop();
    throw error;
  }
  state.ready = true;
  await writeState(state);
  if (options.detached) {
    // From here on the cluster outlives this process; only `cluster:down` stops it.
    signals.dispose();
  }
  const startSeconds = Math.round((performance.now() - started) / 100) / 10;
  options.log(`cluster ready in ${String(startSeconds)}s: ${state.server}, kubeconfig ${layout.kubeconfigPath}`);
  return clusterHandle({
    state,
    tools,
    reused: false,
    stop,
    timings: { buildSeconds: totalBuildSeconds(tools), startSeconds },
    restart: (name) => restartComponent({ name, group, launched, state, options }),
  });
}

interface RestartInput {
  readonly name: ComponentName;
  readonly group: ProcessGroup;
  readonly launched: ReadonlyMap<ComponentName, LaunchedComponent>;
  readonly state: ClusterState;
  readonly options: ResolvedClusterOptions;
}

async function restartComponent(input: RestartInput): Promise<void> {
  const { name, group, state } = input;
  const launched = input.launched.get(name);
  const current = group.processes.find((p) => p.name === name);
  if (launched === undefined || current === undefined) {
    throw new LocalClusterError('is not running in this cluster', { component: name });
  }
  await group.stop(current);
  const started = group.start(launched.spec);
  state.components = state.components.map((c) => (c.name === name ? { ...c, pid: started.pid } : c));
  await writeState(state);
  input.options.log(`restarted ${name} (pid ${String(started.pid)}), waiting until it is ready...`);
  await waitUntilReady({ process: started, probe: launched.probe, timeoutMs: input.options.startTimeoutMs });
}

function totalBuildSeconds(tools: ReadonlyMap<string, BuiltTool>): number {
  return [...tools.values()].reduce((sum, tool) => sum + (tool.buildSeconds ?? 0), 0);
}

/**
 * Records each started process in the state file at once, so that `cluster:down`, a later start and
 * the reaper (started with the first process) can always find everything that runs.
 */
function recordStarted(state: ClusterState, options: ResolvedClusterOptions): (child: StartedProcess) => Promise<void> {
  return async (child) => {
    state.components.push({ name: child.name, pid: child.pid, command: child.command, logFile: child.logFile });
    await writeState(state);
    if (state.components.length === 1 && !options.detached) {
      startReaper(state.runDir);
    }
  };
}

function initialState(options: ResolvedClusterOptions, layout: ClusterLayout, ports: ClusterPorts): ClusterState {
  return {
    name: options.name,
    runDir: layout.runDir,
    ownerPid: options.detached ? null : process.pid,
    server: `https://127.0.0.1:${String(ports.apiServer)}`,
    kubeconfigPath: layout.kubeconfigPath,
    startedAt: new Date().toISOString(),
    components: [],
    ready: false,
  };
}

async function choosePorts(options: ResolvedClusterOptions): Promise<ClusterPorts> {
  const free = await allocatePorts([
    'etcdClient',
    'etcdPeer',
    'apiServer',
    'controllerManager',
    'scheduler',
    'kwok',
  ] as const);
  return { ...free, apiServer: options.apiServerPort ?? free.apiServer };
}

interface HandleInput {
  readonly state: ClusterState;
  readonly tools: ReadonlyMap<string, BuiltTool>;
  readonly reused: boolean;
  readonly timings: { readonly buildSeconds: number; readonly startSeconds: number };
  readonly stop: () => Promise<void>;
  readonly restart: (name: ComponentName) => Promise<void>;
}

function clusterHandle(input: HandleInput): LocalCluster {
  const { state, stop } = input;
  return {
    name: state.name,
    runDir: state.runDir,
    kubeconfigPath: state.kubeconfigPath,
    server: state.server,
    auditLogPath: clusterLayout(state.runDir).auditLogPath,
    reused: input.reused,
    components: state.components,
    binaries: new Map([...input.tools].map(([name, tool]) => [name, tool.path])),
    ...input.timings,
    restartComponent: input.restart,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

function onceOnly(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= fn();
    return running;
  };
}

interface SignalHandlerInput {
  readonly options: ResolvedClusterOptions;
  readonly group: ProcessGroup;
  readonly stop: () => Promise<void>;
}

/**
 * While the cluster belongs to this process: SIGINT/SIGTERM stop it in order and exit, and a plain
 * exit kills whatever is left. A detached cluster keeps the handlers only while it starts.
 */
function installSignalHandlers(input: SignalHandlerInput): { dispose: () => void } {
  const onExit = (): void => {
    input.group.killAllNow();
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    input.options.log(`received ${signal}, stopping the cluster...`);
    void input.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.on('exit', onExit);
  if (input.options.handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  return {
    dispose: () => {
      process.off('exit', onExit);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** Starts the detached reaper that stops the cluster if this process dies without cleaning up. */
function startReaper(runDir: string): void {
  const self = fileURLToPath(import.meta.url);
  const reaper = path.join(path.dirname(self), `reaper${path.extname(self)}`);
  spawn(process.execPath, [reaper, runDir, String(process.pid)], { detached: true, stdio: 'ignore' }).unref();
}

export interface ClusterLocator {
  readonly name?: string;
  readonly runDir?: string;
  readonly cacheRoot?: string;
}

/** Stops a cluster started elsewhere (for example by `cluster:up`), by the pids in its state file. */
export async function stopLocalCluster(locator: ClusterLocator = {}): Promise<ClusterState | undefined> {
  const { runDir } = resolveClusterOptions({ ...locator, handleSignals: false });
  const state = await readState(runDir);
  if (state === undefined) {
    return undefined;
  }
  await stopRecordedProcesses(state.components);
  await rm(stateFile(runDir), { force: true });
  await rm(clusterLayout(runDir).etcdDataDir, { recursive: true, force: true });
  return state;
}

export interface LocalClusterStatus {
  readonly state: ClusterState;
  readonly running: boolean;
  readonly deadComponents: readonly string[];
}

/** Reports whether the cluster in a run directory runs and serves. */
export async function localClusterStatus(locator: ClusterLocator = {}): Promise<LocalClusterStatus | undefined> {
  const { runDir } = resolveClusterOptions({ ...locator, handleSignals: false });
  const existing = await inspectExisting(runDir);
  if (existing === undefined) {
    return undefined;
  }
  const deadComponents = existing.state.components.filter((c) => !isOurProcess(c.pid, c.command)).map((c) => c.name);
  return { state: existing.state, running: existing.kind === 'running', deadComponents };
}
