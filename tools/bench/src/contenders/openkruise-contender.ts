/**
 * OpenKruise's kruise-manager (OPENKRUISE_VERSION, a binary built from its checkout) as a contender,
 * run out of cluster with its own identity's kubeconfig, installed as its release installs it: all of
 * its CRDs, its webhook configurations (openkruise-webhooks.ts) and its namespace. Its webhook server
 * listens on 127.0.0.1: with WEBHOOK_HOST set, its webhook controller writes its self-signed
 * certificates to WEBHOOK_CERT_DIR (not to the Secret) and points every webhook at
 * `https://WEBHOOK_HOST:WEBHOOK_PORT/<path>` instead of its Service. Its feature gates are the
 * release's defaults: every controller the scenarios use is on, and so is the pod webhook (SidecarSet
 * injection), with the release's `failurePolicy: Fail`.
 */
import path from 'node:path';

import { CoreV1Api } from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';

import { freeLoopbackPort } from '@kruise-ts/local-cluster';

import { byUsername } from '../collect/index.ts';
import { startShell } from './command-contender.ts';
import type { Contender, ContenderContext, RunningContender } from './contender.ts';
import { openKruiseCrdFiles, OPENKRUISE_VERSION } from './openkruise-paths.ts';
import type { OpenKruisePaths } from './openkruise-paths.ts';
import { createWebhookConfigurations, readWebhookConfigurations } from './openkruise-webhooks.ts';

/** Its namespace (POD_NAMESPACE): the SidecarSets' ControllerRevisions go there. */
export const OPENKRUISE_NAMESPACE = 'kruise-system';
/** Its pod mutating webhook's name in config/webhook/manifests.yaml (kube-apiserver's admission metrics label it so). */
export const OPENKRUISE_POD_WEBHOOK = 'mpod.kb.io';
/** kruise-manager's client limit has no "unlimited" (a value ≤ 0 keeps its 30 QPS): this is one no run reaches. */
const UNLIMITED = 100_000;

/** What its command line is built from. */
export interface OpenKruiseLaunch {
  readonly manager: string;
  readonly metricsPort: number;
  readonly healthPort: number;
  readonly webhookPort: number;
  /** Where its webhook controller writes the certificates it generates. */
  readonly certDir: string;
  /** Where it writes its protection log (`/log` by default, outside the run's directory). */
  readonly protectionLogDir: string;
  /** The run's client limit; 0 is none. */
  readonly qps: number;
  readonly burst: number;
}

/** Its environment and arguments. */
export function openKruiseCommand(launch: OpenKruiseLaunch): {
  readonly env: Readonly<Record<string, string>>;
  readonly args: readonly string[];
} {
  return {
    env: {
      POD_NAMESPACE: OPENKRUISE_NAMESPACE,
      WEBHOOK_HOST: '127.0.0.1',
      WEBHOOK_PORT: String(launch.webhookPort),
      WEBHOOK_CERT_DIR: launch.certDir,
    },
    args: [
      `--metrics-addr=127.0.0.1:${String(launch.metricsPort)}`,
      `--health-probe-addr=127.0.0.1:${String(launch.healthPort)}`,
      '--enable-leader-election=false',
      '--enable-pprof=false',
      `--rest-config-qps=${String(launch.qps || UNLIMITED)}`,
      `--rest-config-burst=${String(launch.burst || UNLIMITED)}`,
      `--protection-log-path=${launch.protectionLogDir}`,
    ],
  };
}

/** Single-quoted for `sh`. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The `sh -c` script: the environment, then exec of the binary (so the measured tree is kruise-manager under sh). */
export function openKruiseScript(launch: OpenKruiseLaunch): string {
  const { env, args } = openKruiseCommand(launch);
  const assignments = Object.entries(env).map(([name, value]) => `${name}=${shellQuote(value)}`);
  return ['exec', 'env', ...assignments, shellQuote(launch.manager), ...args.map(shellQuote)].join(' ');
}

/** Its namespace and webhook configurations; the CRDs come first (Contender.crdFiles). */
async function setUpCluster(admin: KubeConfig, source: string): Promise<void> {
  await admin.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: OPENKRUISE_NAMESPACE } } });
  await createWebhookConfigurations(admin, await readWebhookConfigurations(source));
}

async function launchFor(paths: OpenKruisePaths, context: ContenderContext, name: string): Promise<OpenKruiseLaunch> {
  const runDir = path.dirname(context.logFile);
  return {
    manager: paths.manager,
    metricsPort: context.metricsPorts[0] ?? 0,
    healthPort: await freeLoopbackPort(),
    webhookPort: await freeLoopbackPort(),
    certDir: path.join(runDir, `${name}-webhook-certs`),
    protectionLogDir: path.join(runDir, `${name}-protection-log`),
    qps: context.qps,
    burst: context.burst,
  };
}

/**
 * kruise-manager from `paths` (checked by the caller: openkruise-paths.ts). The scenario's flags for
 * our launcher (`extraArgs`) are not its flags: it needs none of them.
 */
export function openKruiseContender(paths: OpenKruisePaths, name = 'openkruise'): Contender {
  return {
    name,
    kind: 'openkruise',
    processes: 1,
    crdFiles: openKruiseCrdFiles(paths.source),
    setUpCluster: (admin) => setUpCluster(admin, paths.source),
    podWebhookName: OPENKRUISE_POD_WEBHOOK,
    async start(context): Promise<RunningContender> {
      const launch = await launchFor(paths, context, name);
      const script = openKruiseScript(launch);
      const started = await startShell(script, context);
      return {
        info: { name, kind: 'openkruise', command: `kruise-manager ${OPENKRUISE_VERSION}: ${script}` },
        pid: started.pid,
        metricsUrls: [`http://127.0.0.1:${String(launch.metricsPort)}/metrics`],
        // Its readiness check waits for the webhook controller to have written the certificates and
        // configurations and for the webhook server to answer: before that, the configurations point
        // at a Service that does not exist, and with failurePolicy Fail no pod could be created.
        readyUrl: `http://127.0.0.1:${String(launch.healthPort)}/readyz`,
        select: byUsername(context.username),
        collectsGarbageOnSignal: false,
        stop: started.stop,
      };
    },
  };
}
