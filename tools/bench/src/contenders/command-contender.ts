/**
 * Contenders that are commands: our launcher (all apps in one process), our apps one process each,
 * and any external command line. Each runs under `sh -c`, whose process tree is what is measured.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { byUsername } from '../collect/index.ts';
import type { Contender, ContenderContext, RunningContender } from './contender.ts';
import { ourNodeCommand } from './our-processes.ts';
import type { OurRuntime } from './our-processes.ts';

/** The repository root (the launcher and the apps run from their sources there). */
export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const STOP_TIMEOUT_MS = 20_000;

/** Replaces `{kubeconfig}`, `{metricsPort}`, `{metricsPort1}`..., `{qps}` and `{burst}` in an external command line. */
export function expandPlaceholders(
  command: string,
  context: Pick<ContenderContext, 'kubeconfigPath' | 'metricsPorts' | 'qps' | 'burst'>,
): string {
  return command.replace(/\{(kubeconfig|metricsPort\d*|qps|burst)\}/g, (_match, name: string) => {
    if (name === 'kubeconfig') {
      return context.kubeconfigPath;
    }
    if (name === 'qps') {
      return String(context.qps);
    }
    if (name === 'burst') {
      return String(context.burst);
    }
    const index = name === 'metricsPort' ? 0 : Number(name.slice('metricsPort'.length)) - 1;
    const port = context.metricsPorts[index];
    if (port === undefined) {
      throw new Error(
        `the command uses {${name}}, but only ${String(context.metricsPorts.length)} metrics port(s) were reserved`,
      );
    }
    return String(port);
  });
}

/** The flags our apps get in a benchmark: the contender's identity and rate limit, no leader election, quiet logs, and the scenario's own. */
function kruiseTsFlags(context: ContenderContext, metricsPort: number): string {
  return [
    `--kubeconfig=${context.kubeconfigPath}`,
    `--kube-api-qps=${String(context.qps)}`,
    `--kube-api-burst=${String(context.burst)}`,
    `--metrics-bind-address=127.0.0.1:${String(metricsPort)}`,
    '--health-probe-bind-address=127.0.0.1:0',
    '--leader-elect=false',
    '--log-level=warn',
    // Every app serves a validation webhook: a free port, so that a contender's processes never collide on 9876.
    ...(context.extraArgs.some((arg) => arg.startsWith('--webhook-port')) ? [] : ['--webhook-port=0']),
    ...context.extraArgs,
  ].join(' ');
}

/** Runs `script` under `sh -c` in a process group of its own, its output to the context's log file. */
export async function startShell(
  script: string,
  context: Pick<ContenderContext, 'logFile' | 'kubeconfigPath'>,
): Promise<{ pid: number; stop: () => Promise<void> }> {
  const log = createWriteStream(context.logFile, { flags: 'a' });
  await once(log, 'open');
  const child = spawn('sh', ['-c', script], {
    cwd: REPOSITORY_ROOT,
    stdio: ['ignore', log, log],
    env: { ...process.env, KUBECONFIG: context.kubeconfigPath },
    detached: true,
  });
  const pid = child.pid;
  if (pid === undefined) {
    throw new Error(`could not start: ${script}`);
  }
  const exited = once(child, 'exit');
  // It runs in its own process group, so a Ctrl-C of the benchmark does not reach it, and the
  // cluster's signal handler exits without running our cleanups: kill it when this process exits.
  const killOnExit = (): void => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  process.on('exit', killOnExit);
  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-pid, 'SIGTERM');
      const timer = setTimeout(() => {
        process.kill(-pid, 'SIGKILL');
      }, STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    log.end();
  };
  return { pid, stop };
}

/**
 * Our controllers, every enabled app in one process (tools/launcher), as the image runs it (the
 * bundle with the chart's memory settings) or from the TypeScript sources (`runtime: 'source'`).
 */
export function kruiseTsContender(name = 'kruise-ts', runtime: OurRuntime = 'bundle', extraFlags = ''): Contender {
  return {
    name,
    kind: 'kruise-ts',
    processes: 1,
    async start(context): Promise<RunningContender> {
      const port = context.metricsPorts[0] ?? 0;
      const script = `exec ${await ourNodeCommand(runtime, 'tools/launcher/src/cli.ts')} ${kruiseTsFlags(context, port)}${extraFlags === '' ? '' : ` ${extraFlags}`}`;
      const started = await startShell(script, context);
      return {
        info: { name, kind: 'kruise-ts', command: script },
        pid: started.pid,
        metricsUrls: [`http://127.0.0.1:${String(port)}/metrics`],
        select: byUsername(context.username),
        collectsGarbageOnSignal: true,
        stop: started.stop,
      };
    },
  };
}

/** Our controllers, one process per app (as the Helm chart deploys them, from the image's bundles). */
export function kruiseTsPerAppContender(entrypoints: readonly string[], name = 'kruise-ts-per-app'): Contender {
  return {
    name,
    kind: 'kruise-ts-per-app',
    processes: entrypoints.length,
    async start(context): Promise<RunningContender> {
      const commands = await Promise.all(entrypoints.map((entrypoint) => ourNodeCommand('bundle', entrypoint)));
      const lines = commands.map(
        (command, index) => `${command} ${kruiseTsFlags(context, context.metricsPorts[index] ?? 0)} &`,
      );
      const script = [...lines, 'wait'].join('\n');
      const started = await startShell(script, context);
      return {
        info: { name, kind: 'kruise-ts-per-app', command: lines.map((line) => line.slice(0, -2)).join(' ; ') },
        pid: started.pid,
        metricsUrls: context.metricsPorts
          .slice(0, entrypoints.length)
          .map((port) => `http://127.0.0.1:${String(port)}/metrics`),
        select: byUsername(context.username),
        collectsGarbageOnSignal: true,
        stop: started.stop,
      };
    },
  };
}

/**
 * `replicas` processes of the CloneSet app that share the CloneSets (`--sharding`, docs/sharding.md),
 * from the image's bundle, their ring's Leases in `default`. The tree's figures are the sum over the
 * replicas; the report divides by none of them.
 */
export function kruiseTsShardedContender(replicas: number, name = `kruise-ts-shards-${String(replicas)}`): Contender {
  return {
    name,
    kind: 'kruise-ts-per-app',
    processes: replicas,
    async start(context): Promise<RunningContender> {
      const command = await ourNodeCommand('bundle', 'apps/cloneset/src/main.ts');
      const lines = Array.from(
        { length: replicas },
        (_unused, index) =>
          `${command} ${kruiseTsFlags(context, context.metricsPorts[index] ?? 0)} --sharding --leader-election-namespace=default &`,
      );
      const script = [...lines, 'wait'].join('\n');
      const started = await startShell(script, context);
      return {
        info: { name, kind: 'kruise-ts-per-app', command: lines.map((line) => line.slice(0, -2)).join(' ; ') },
        pid: started.pid,
        metricsUrls: context.metricsPorts.slice(0, replicas).map((port) => `http://127.0.0.1:${String(port)}/metrics`),
        select: byUsername(context.username),
        collectsGarbageOnSignal: true,
        stop: started.stop,
      };
    },
  };
}

/**
 * Any controller that serves `apps.kruise.io` workloads, given as a command line with placeholders
 * (`{kubeconfig}`, `{metricsPort}`, `{qps}`, `{burst}`); `$KUBECONFIG` is set too. Its /metrics is
 * scraped when the command uses `{metricsPort}`.
 */
export function externalContender(name: string, command: string): Contender {
  return {
    name,
    kind: 'external',
    processes: 1,
    async start(context): Promise<RunningContender> {
      const script = expandPlaceholders(command, context);
      const started = await startShell(script, context);
      const port = context.metricsPorts[0];
      return {
        info: { name, kind: 'external', command },
        pid: started.pid,
        metricsUrls:
          command.includes('{metricsPort}') && port !== undefined ? [`http://127.0.0.1:${String(port)}/metrics`] : [],
        select: byUsername(context.username),
        collectsGarbageOnSignal: false,
        stop: started.stop,
      };
    },
  };
}
