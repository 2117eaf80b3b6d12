import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { etcdArgs } from './components/etcd.ts';
import { kubeApiServerArgs } from './components/kube-apiserver.ts';
import { DEFAULT_CONTROLLERS, kubeControllerManagerArgs } from './components/kube-controller-manager.ts';
import { kubeSchedulerArgs, kubeSchedulerConfig } from './components/kube-scheduler.ts';
import { kwokArgs } from './components/kwok.ts';
import type { BuiltTool } from './go-build.ts';
import { writeKubeconfig } from './kubeconfig.ts';
import { renderKwokStages } from './kwok-stages.ts';
import type { ComponentName, ResolvedClusterOptions } from './options.ts';
import type { ClusterPki } from './pki.ts';
import { assertPortFree } from './ports.ts';
import type { ProcessGroup, ProcessSpec, StartedProcess } from './process-group.ts';
import { httpProbe, waitUntilReady } from './readiness.ts';
import { FAKE_PROVISIONER } from './storage.ts';
import { KUBERNETES_VERSION } from './versions.ts';

/** Where one cluster keeps its files. */
export interface ClusterLayout {
  readonly runDir: string;
  readonly logDir: string;
  readonly pkiDir: string;
  readonly etcdDataDir: string;
  readonly kubeconfigPath: string;
  /** Written only when the cluster has an audit policy. */
  readonly auditLogPath: string;
}

export function clusterLayout(runDir: string): ClusterLayout {
  return {
    runDir,
    logDir: path.join(runDir, 'logs'),
    pkiDir: path.join(runDir, 'pki'),
    etcdDataDir: path.join(runDir, 'etcd'),
    kubeconfigPath: path.join(runDir, 'kubeconfig'),
    auditLogPath: path.join(runDir, 'audit.log'),
  };
}

export interface ClusterPorts {
  readonly etcdClient: number;
  readonly etcdPeer: number;
  readonly apiServer: number;
  readonly controllerManager: number;
  readonly scheduler: number;
  readonly kwok: number;
}

export interface StarterContext {
  readonly options: ResolvedClusterOptions;
  readonly layout: ClusterLayout;
  readonly tools: ReadonlyMap<string, BuiltTool>;
  readonly pki: ClusterPki;
  readonly ports: ClusterPorts;
  readonly group: ProcessGroup;
  /** Called after each component is up, so the state file always lists what runs. */
  readonly onStarted: (process: StartedProcess) => Promise<void>;
  /** How each component was launched, so that it can be restarted the same way. */
  readonly launched: Map<ComponentName, LaunchedComponent>;
}

/** A component's process spec and readiness probe, kept for restarts. */
export interface LaunchedComponent {
  readonly spec: ProcessSpec;
  readonly probe: () => Promise<boolean>;
}

/**
 * Starts the five processes in dependency order, each only after the previous one is ready:
 * etcd, kube-apiserver, then kube-controller-manager, kube-scheduler and kwok, which all need the API.
 */
export async function startComponents(context: StarterContext): Promise<string> {
  await startEtcd(context);
  const server = await startApiServer(context);
  await writeKubeconfig(context.layout.kubeconfigPath, {
    server,
    caPem: context.pki.caPem,
    token: context.pki.adminToken,
  });
  await startControllerManager(context);
  await startScheduler(context);
  await startKwok(context);
  return server;
}

async function startEtcd(context: StarterContext): Promise<void> {
  const { ports, layout } = context;
  await launch(context, {
    name: 'etcd',
    port: ports.etcdClient,
    args: etcdArgs({ dataDir: layout.etcdDataDir, clientPort: ports.etcdClient, peerPort: ports.etcdPeer }),
    probe: () => httpProbe(`http://127.0.0.1:${String(ports.etcdClient)}/health`, { expectBody: /"health":"true"/ }),
  });
}

async function startApiServer(context: StarterContext): Promise<string> {
  const { ports, pki, options, layout } = context;
  const server = `https://127.0.0.1:${String(ports.apiServer)}`;
  const audit: { auditPolicyFile?: string; auditLogFile?: string } = {};
  if (options.auditPolicy !== undefined) {
    audit.auditPolicyFile = path.join(layout.runDir, 'audit-policy.yaml');
    audit.auditLogFile = layout.auditLogPath;
    await writeFile(audit.auditPolicyFile, options.auditPolicy);
  }
  await launch(context, {
    name: 'kube-apiserver',
    port: ports.apiServer,
    args: kubeApiServerArgs({
      etcdUrl: `http://127.0.0.1:${String(ports.etcdClient)}`,
      port: ports.apiServer,
      pki,
      serviceClusterIpRange: '10.96.0.0/16',
      ...audit,
    }),
    probe: () => httpProbe(`${server}/readyz`, { caPem: pki.caPem }),
  });
  return server;
}

async function startControllerManager(context: StarterContext): Promise<void> {
  const { ports, layout, pki, options } = context;
  await launch(context, {
    name: 'kube-controller-manager',
    port: ports.controllerManager,
    args: kubeControllerManagerArgs({
      kubeconfig: layout.kubeconfigPath,
      port: ports.controllerManager,
      caFile: pki.ca.certFile,
      controllers: options.controllers ?? DEFAULT_CONTROLLERS,
    }),
    probe: () => httpProbe(`https://127.0.0.1:${String(ports.controllerManager)}/healthz`),
  });
}

async function startScheduler(context: StarterContext): Promise<void> {
  const { ports, layout, options } = context;
  const configFile = path.join(layout.runDir, 'kube-scheduler.yaml');
  await writeFile(configFile, kubeSchedulerConfig(layout.kubeconfigPath, options.schedulerClient));
  await launch(context, {
    name: 'kube-scheduler',
    port: ports.scheduler,
    args: kubeSchedulerArgs({ configFile, kubeconfig: layout.kubeconfigPath, port: ports.scheduler }),
    probe: () => httpProbe(`https://127.0.0.1:${String(ports.scheduler)}/healthz`),
  });
}

async function startKwok(context: StarterContext): Promise<void> {
  const { ports, layout, options } = context;
  const stagesFile = path.join(layout.runDir, 'kwok-stages.yaml');
  await writeFile(
    stagesFile,
    renderKwokStages({ ...options.kubelet, kubeletVersion: KUBERNETES_VERSION, provisioner: FAKE_PROVISIONER }),
  );
  await launch(context, {
    name: 'kwok',
    port: ports.kwok,
    args: kwokArgs({ kubeconfig: layout.kubeconfigPath, stagesFile, port: ports.kwok }),
    probe: () => httpProbe(`http://127.0.0.1:${String(ports.kwok)}/healthz`),
  });
}

interface LaunchRequest {
  readonly name: ComponentName;
  readonly port: number;
  readonly args: readonly string[];
  readonly probe: () => Promise<boolean>;
}

const BINARY_OF: Record<ComponentName, { tool: string; alias?: string }> = {
  etcd: { tool: 'etcd' },
  'kube-apiserver': { tool: 'kube', alias: 'kube-apiserver' },
  'kube-controller-manager': { tool: 'kube', alias: 'kube-controller-manager' },
  'kube-scheduler': { tool: 'kube', alias: 'kube-scheduler' },
  kwok: { tool: 'kwok' },
};

/** The tools a cluster runs, and so the only ones it builds: helm is for the chart tests alone. */
export const CLUSTER_TOOLS: ReadonlySet<string> = new Set(Object.values(BINARY_OF).map(({ tool }) => tool));

function binaryFor(name: ComponentName, tools: ReadonlyMap<string, BuiltTool>): string {
  const { tool, alias } = BINARY_OF[name];
  const built = tools.get(tool);
  if (built === undefined) {
    throw new Error(`no binary for ${name}: tool ${tool} was not built`);
  }
  return alias === undefined ? built.path : path.join(built.directory, alias);
}

async function launch(context: StarterContext, request: LaunchRequest): Promise<void> {
  const { options, layout, group } = context;
  await assertPortFree(request.port, request.name);
  await mkdir(layout.logDir, { recursive: true });
  const spec: ProcessSpec = {
    name: request.name,
    command: binaryFor(request.name, context.tools),
    args: [...request.args, ...(options.extraArgs[request.name] ?? [])],
    logFile: path.join(layout.logDir, `${request.name}.log`),
  };
  context.launched.set(request.name, { spec, probe: request.probe });
  const started = group.start(spec);
  options.log(`started ${request.name} (pid ${String(started.pid)}), waiting until it is ready...`);
  await context.onStarted(started);
  await waitUntilReady({ process: started, probe: request.probe, timeoutMs: options.startTimeoutMs });
}
