#!/usr/bin/env node
/**
 * kruise-ts-cluster: build, start, inspect and stop the local control plane.
 *
 *   build [tool...]        build missing binaries into the cache (all tools by default: etcd, kwok,
 *                          helm, kube) and print how long each took
 *   up [--nodes N] ...     start a cluster that keeps running after this command (reuses a running one)
 *   status                 say whether the cluster runs
 *   down                   stop it
 */
import { parseArgs } from 'node:util';

import { z } from 'zod';

import type { GoToolSpec, LocalClusterOptions } from './index.ts';
import {
  defaultCacheRoot,
  defaultToolSpecs,
  ensureTools,
  KUBERNETES_VERSION,
  localClusterStatus,
  startLocalCluster,
  stopLocalCluster,
} from './index.ts';

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const integerFlag = z.coerce.number().int();

const upFlagsSchema = z.strictObject({
  name: z.string().optional(),
  nodes: integerFlag.min(1).optional(),
  zones: integerFlag.min(1).optional(),
  'pods-per-node': integerFlag.min(1).optional(),
  port: integerFlag.min(1).max(65535).optional(),
  'pod-start-delay-ms': integerFlag.min(0).optional(),
  'container-update-delay-ms': integerFlag.min(0).optional(),
  'pod-delete-delay-ms': integerFlag.min(0).optional(),
});

const FLAG_SPEC = {
  name: { type: 'string' },
  nodes: { type: 'string' },
  zones: { type: 'string' },
  'pods-per-node': { type: 'string' },
  port: { type: 'string' },
  'pod-start-delay-ms': { type: 'string' },
  'container-update-delay-ms': { type: 'string' },
  'pod-delete-delay-ms': { type: 'string' },
} as const;

function parseFlags(args: string[]): z.output<typeof upFlagsSchema> {
  const { values } = parseArgs({ args, options: FLAG_SPEC, strict: true, allowPositionals: false });
  const parsed = upFlagsSchema.safeParse(values);
  if (!parsed.success) {
    throw new TypeError(`invalid flags: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** The tools named on the command line, or all of them (CI builds everything the tests use). */
function toolSpecsNamed(names: readonly string[]): GoToolSpec[] {
  const all = defaultToolSpecs();
  const unknown = names.filter((name) => !all.some((spec) => spec.name === name));
  if (unknown.length > 0) {
    throw new TypeError(`unknown tool ${unknown.join(', ')}; the tools are ${all.map((spec) => spec.name).join(', ')}`);
  }
  return names.length === 0 ? all : all.filter((spec) => names.includes(spec.name));
}

async function build(args: string[]): Promise<void> {
  const started = performance.now();
  const specs = toolSpecsNamed(args);
  const tools = await ensureTools({ cacheRoot: defaultCacheRoot(), specs, log, progressTerminal: process.stderr });
  for (const tool of tools.values()) {
    log(
      `${tool.name} ${tool.version}: ${tool.buildSeconds === undefined ? 'cached' : `built in ${String(tool.buildSeconds)}s`} (${tool.path})`,
    );
  }
  log(`Go tools ready in ${String(Math.round((performance.now() - started) / 1000))}s`);
}

/** Flags of `up` as cluster options; unset flags keep the options' defaults. */
function clusterOptionsFromFlags(flags: z.output<typeof upFlagsSchema>): LocalClusterOptions {
  const defined = <T extends object>(value: T): Partial<T> =>
    Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
  return {
    ...defined({
      name: flags.name,
      nodes: flags.nodes,
      zones: flags.zones,
      podsPerNode: flags['pods-per-node'],
      apiServerPort: flags.port,
    }),
    kubelet: defined({
      podStartDelayMs: flags['pod-start-delay-ms'],
      containerUpdateDelayMs: flags['container-update-delay-ms'],
      podDeleteDelayMs: flags['pod-delete-delay-ms'],
    }),
  };
}

async function up(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const cluster = await startLocalCluster({
    ...clusterOptionsFromFlags(flags),
    detached: true,
    reuse: true,
    log,
    progressTerminal: process.stderr,
  });
  const downHint = flags.name === undefined ? 'npm run cluster:down' : `npm run cluster:down -- --name ${flags.name}`;
  process.stdout.write(
    [
      `Cluster '${cluster.name}' is ${cluster.reused ? 'already running (reused)' : 'ready'}: Kubernetes ${KUBERNETES_VERSION} at ${cluster.server}`,
      `kubeconfig: ${cluster.kubeconfigPath}`,
      `try:        kubectl --kubeconfig ${cluster.kubeconfigPath} get nodes -L topology.kubernetes.io/zone`,
      `logs:       ${cluster.runDir}/logs`,
      `stop:       ${downHint}`,
      '',
    ].join('\n'),
  );
}

async function status(args: string[]): Promise<void> {
  const { name } = parseFlags(args);
  const result = await localClusterStatus(name === undefined ? {} : { name });
  if (result === undefined) {
    process.stdout.write('No cluster is running (start one with `npm run cluster:up`).\n');
    process.exitCode = 1;
    return;
  }
  const { state, running, deadComponents } = result;
  const health = running
    ? 'running'
    : `not serving (stopped components: ${deadComponents.join(', ') || 'none'}; logs in ${state.runDir}/logs)`;
  process.stdout.write(
    `Cluster '${state.name}' ${health}\napiserver:  ${state.server}\nkubeconfig: ${state.kubeconfigPath}\n`,
  );
  process.exitCode = running ? 0 : 1;
}

async function down(args: string[]): Promise<void> {
  const { name } = parseFlags(args);
  const state = await stopLocalCluster(name === undefined ? {} : { name });
  process.stdout.write(
    state === undefined
      ? 'No cluster was running.\n'
      : `Stopped cluster '${state.name}' (${String(state.components.length)} processes).\n`,
  );
}

const COMMANDS: Record<string, (args: string[]) => Promise<void>> = { build, up, status, down };

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const run = command === undefined ? undefined : COMMANDS[command];
  if (run === undefined) {
    process.stderr.write(`usage: kruise-ts-cluster <${Object.keys(COMMANDS).join('|')}> [flags]\n`);
    process.exitCode = 2;
    return;
  }
  await run(rest);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
