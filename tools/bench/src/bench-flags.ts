/**
 * `npm run bench -- <scenario> [flags]`: the command line, validated with zod so that a bad value
 * fails with the flag's name before any cluster starts.
 */
import { parseArgs } from 'node:util';

import { z } from 'zod';

import {
  expandPlaceholders,
  externalContender,
  kruiseTsContender,
  kruiseTsPerAppContender,
  kruiseTsShardedContender,
} from './contenders/command-contender.ts';
import type { Contender } from './contenders/contender.ts';
import { nativeContender } from './contenders/native-contender.ts';
import { openKruiseContender } from './contenders/openkruise-contender.ts';
import { fileUsable, missingOpenKruisePaths, resolveOpenKruisePaths } from './contenders/openkruise-paths.ts';
import type { OpenKruisePaths } from './contenders/openkruise-paths.ts';
import type { WorkloadFamily } from './measure/workloads.ts';
import { SCENARIO_NAMES } from './result.ts';
import type { RunSettings, ScenarioName } from './result.ts';
import { SCENARIOS } from './scenarios/scenario.ts';
import type { RunScenarioOptions } from './scenarios/scenario.ts';

const count = (min: number, max: number): z.ZodCoercedNumber => z.coerce.number().int().min(min).max(max);
const percent = z.string().regex(/^(100|[1-9]?[0-9])%$/, 'must be a percentage like 20%');
/** A contender's name as `--contender <name>=<command>` takes it (and so as a file name of its log). */
const CONTENDER_NAME = '[a-z0-9][a-z0-9-]{0,40}';
const readyFlag = z
  .string()
  .regex(new RegExp(`^${CONTENDER_NAME}=https?://\\S+$`), 'want <contender name>=<http:// or https:// URL>');

/**
 * Pod status writes the simulated kubelets (one kwok process) make at once. kwok's own default, 4,
 * makes kwok the bottleneck of every rollout here; a real cluster has a kubelet per node.
 */
export const DEFAULT_KUBELET_PARALLELISM = 32;

/** The local cluster's most fake nodes (local-cluster's MAX_FAKE_NODES: a /20 of pod addresses each in 10.64.0.0/10). */
const MAX_NODES = 1024;
/** bcj-nodes' nodes when --nodes is absent (its pods: one per node). */
const DEFAULT_PER_NODE_NODES = 1_000;

const flagsSchema = z.strictObject({
  pods: count(1, 50_000).optional(),
  nodes: count(1, MAX_NODES).optional(),
  'pods-per-node': count(1, 4094).optional(),
  'pod-start-delay-ms': count(0, 600_000).default(0),
  'container-update-delay-ms': count(0, 600_000).default(0),
  'pod-delete-delay-ms': count(0, 600_000).default(0),
  'kubelet-parallelism': count(1, 1024).default(DEFAULT_KUBELET_PARALLELISM),
  qps: count(0, 100_000).default(0),
  burst: count(0, 100_000).default(0),
  'scheduler-qps': count(0, 100_000).default(0),
  'max-unavailable': percent.default('20%'),
  'timeout-seconds': count(10, 24 * 3600).optional(),
  workloads: count(1, 10_000).default(100),
  'pods-per-workload': count(1, 1_000).default(50),
  'idle-seconds': count(1, 3_600).default(30),
  'idle-window-seconds': count(1, 600).default(10),
  'churn-percent': count(1, 100).default(10),
  'apiserver-profile-seconds': count(0, 600).default(0),
  'job-run-ms': count(0, 600_000).default(1_000),
  contender: z.array(z.string().min(1)).default([]),
  'contender-ready': z.array(readyFlag).default([]),
  out: z.string().min(1).default('bench-results'),
  'openkruise-manager': z.string().min(1).optional(),
  'openkruise-source': z.string().min(1).optional(),
});

/**
 * Contenders by default: the native Deployment joins the CloneSet recreate scenario; the native
 * StatefulSet joins both Advanced StatefulSet scenarios (it has no in-place update: its figure is what
 * the same change costs a StatefulSet user without one).
 */
const DEFAULT_CONTENDERS: Readonly<Record<ScenarioName, readonly string[]>> = {
  scale: ['kruise-ts'],
  inplace: ['kruise-ts'],
  recreate: ['kruise-ts', 'native'],
  steady: ['kruise-ts'],
  'asts-inplace': ['kruise-ts', 'native'],
  'asts-recreate': ['kruise-ts', 'native'],
  'sidecarset-scale': ['kruise-ts'],
  'bcj-nodes': ['kruise-ts', 'native'],
};

/** The app entrypoints of the one-process-per-app contender: the apps a scenario's family needs. */
const APP_ENTRYPOINTS: Readonly<Record<WorkloadFamily, readonly string[]>> = {
  cloneset: ['apps/cloneset/src/main.ts', 'apps/advanced-statefulset/src/main.ts'],
  statefulset: ['apps/cloneset/src/main.ts', 'apps/advanced-statefulset/src/main.ts'],
  broadcastjob: ['apps/broadcastjob/src/main.ts'],
};

export class BenchFlagError extends Error {}

/** OpenKruise's kruise-manager, once its binary and checkout are known to be there. */
function openKruiseFromPaths(paths: OpenKruisePaths): Contender {
  const missing = missingOpenKruisePaths(paths, fileUsable);
  if (missing !== undefined) {
    throw new BenchFlagError(`--contender openkruise: ${missing}`);
  }
  return openKruiseContender(paths);
}

/** The contenders that run every scenario (sidecarset-scale too: their pod webhooks register themselves); undefined for the others. */
function contenderOfEveryScenario(flag: string, openKruise: OpenKruisePaths): Contender | undefined {
  if (flag === 'kruise-ts') {
    return kruiseTsContender();
  }
  // The same launcher from the TypeScript sources with Node.js's memory defaults: what the image's
  // bundle and the chart's memory settings save (docs/benchmarks.md, "Memory and idle CPU").
  if (flag === 'kruise-ts-source') {
    return kruiseTsContender('kruise-ts-source', 'source');
  }
  if (flag === 'openkruise') {
    return openKruiseFromPaths(openKruise);
  }
  return undefined;
}

/**
 * A contender from its flag: `kruise-ts`, `kruise-ts-source`, `kruise-ts-per-app`, `kruise-ts-shards-<N>`
 * (N sharded CloneSet replicas), `native`,
 * `openkruise` (kruise-manager from `openKruise`), or `<name>=<command>` for an external controller
 * (placeholders `{kubeconfig}`, `{metricsPort}`, `{qps}`, `{burst}`).
 */
export function contenderFromFlag(
  flag: string,
  scenario: ScenarioName,
  openKruise: OpenKruisePaths = resolveOpenKruisePaths({}, process.env),
): Contender {
  const everywhere = contenderOfEveryScenario(flag, openKruise);
  if (everywhere !== undefined) {
    return everywhere;
  }
  if (scenario === 'sidecarset-scale') {
    // The scenario drives a pod webhook that registers itself: our launcher's (--webhook-local-configuration) or kruise-manager's.
    throw new BenchFlagError(
      `--contender ${JSON.stringify(flag)}: sidecarset-scale measures a SidecarSet webhook that registers itself; only --contender kruise-ts and --contender openkruise run it`,
    );
  }
  if (flag === 'kruise-ts-per-app') {
    return kruiseTsPerAppContender(APP_ENTRYPOINTS[SCENARIOS[scenario].family]);
  }
  const sharded = /^kruise-ts-shards-([1-9]\d?)$/.exec(flag);
  if (sharded !== null) {
    if (SCENARIOS[scenario].family !== 'cloneset') {
      throw new BenchFlagError(
        `--contender ${flag}: sharded replicas of the CloneSet app serve CloneSet scenarios only`,
      );
    }
    return kruiseTsShardedContender(Number(sharded[1]));
  }
  if (flag === 'native') {
    if (scenario === 'inplace') {
      throw new BenchFlagError(
        '--contender native: a native Deployment cannot update pods in place; use it with scale, recreate or steady',
      );
    }
    return nativeContender(SCENARIOS[scenario].family);
  }
  return namedContender(flag);
}

/** `<name>=<command>`; `<name>=kruise-ts <flags>` is our launcher as the kruise-ts contender runs it, with more flags. */
function namedContender(flag: string): Contender {
  const match = new RegExp(`^(${CONTENDER_NAME})=(.+)$`, 's').exec(flag);
  if (match?.[1] === undefined || match[2] === undefined) {
    throw new BenchFlagError(
      `--contender ${JSON.stringify(flag)}: want kruise-ts, kruise-ts-source, kruise-ts-per-app, native, openkruise, or <name>=<command> (name: lower-case letters, digits, dashes)`,
    );
  }
  const ours = /^kruise-ts(?:\s+(.*))?$/s.exec(match[2]);
  if (ours !== null) {
    return kruiseTsContender(match[1], 'bundle', (ours[1] ?? '').trim());
  }
  return externalContender(match[1], match[2]);
}

/** A `--contender-ready` URL's placeholders must be ones the contender's command could use: filled with stand-ins, it must parse. */
function checkReadyUrl(flag: string, url: string, contender: Contender): void {
  let expanded: string;
  try {
    expanded = expandPlaceholders(url, {
      kubeconfigPath: 'kubeconfig',
      metricsPorts: Array.from({ length: contender.processes }, (_unused, index) => 10_000 + index),
      qps: 0,
      burst: 0,
    });
  } catch (error) {
    throw new BenchFlagError(
      `--contender-ready ${JSON.stringify(flag)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!URL.canParse(expanded)) {
    throw new BenchFlagError(`--contender-ready ${JSON.stringify(flag)}: not a URL`);
  }
}

/**
 * The contenders with their `--contender-ready` URLs (`<name>=<URL>`, at most one per name). Only a
 * contender we start can have one: the native baseline runs with the cluster.
 */
export function withReadyUrls(contenders: readonly Contender[], flags: readonly string[]): Contender[] {
  const urls = new Map<string, string>();
  for (const flag of flags) {
    const [name = '', url = ''] = flag.split(/=(.*)/s);
    const contender = contenders.find((candidate) => candidate.name === name);
    if (contender === undefined) {
      throw new BenchFlagError(
        `--contender-ready ${JSON.stringify(flag)}: no contender named ${JSON.stringify(name)} (${contenders.map((candidate) => candidate.name).join(', ')})`,
      );
    }
    if (contender.kind === 'native') {
      throw new BenchFlagError(
        `--contender-ready ${JSON.stringify(flag)}: the native baseline is kube-controller-manager of the cluster, ready before any contender starts`,
      );
    }
    if (urls.has(name)) {
      throw new BenchFlagError(`--contender-ready ${JSON.stringify(flag)}: ${name} already has a ready URL`);
    }
    checkReadyUrl(flag, url, contender);
    urls.set(name, url);
  }
  return contenders.map((contender) => {
    const readyUrl = urls.get(contender.name);
    return readyUrl === undefined ? contender : { ...contender, readyUrl };
  });
}

export interface BenchCommand {
  readonly settings: RunSettings;
  readonly scenario: RunScenarioOptions;
  readonly contenders: readonly Contender[];
  readonly outDir: string;
}

function parseScenario(positionals: readonly string[]): ScenarioName {
  const [scenario, ...rest] = positionals;
  if (scenario === undefined || !(SCENARIO_NAMES as readonly string[]).includes(scenario)) {
    throw new BenchFlagError(
      `want a scenario first: one of ${SCENARIO_NAMES.join(', ')}${scenario === undefined ? '' : ` (got ${JSON.stringify(scenario)})`}`,
    );
  }
  if (rest.length > 0) {
    throw new BenchFlagError(`unexpected argument ${JSON.stringify(rest[0])}`);
  }
  return scenario as ScenarioName;
}

const REPEATABLE: ReadonlySet<string> = new Set(['contender', 'contender-ready']);

function parseFlagValues(argv: readonly string[]): { positionals: string[]; flags: z.output<typeof flagsSchema> } {
  const options = Object.fromEntries(
    Object.keys(flagsSchema.shape).map((name) => [name, { type: 'string' as const, multiple: REPEATABLE.has(name) }]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new BenchFlagError(error instanceof Error ? error.message : String(error));
  }
  const flags = flagsSchema.safeParse(parsed.values);
  if (!flags.success) {
    throw new BenchFlagError(
      `invalid flags:\n${flags.error.issues.map((issue) => `  --${issue.path.map(String).join('.')}: ${issue.message}`).join('\n')}`,
    );
  }
  return { positionals: parsed.positionals, flags: flags.data };
}

/** The run's pods and nodes: steady's are workloads × pods per workload, bcj-nodes' one per node. */
function podsAndNodes(
  scenarioName: ScenarioName,
  flags: z.output<typeof flagsSchema>,
): { pods: number; nodes: number } {
  if (scenarioName === 'steady') {
    if (flags.pods !== undefined) {
      throw new BenchFlagError('--pods: the steady scenario has --workloads × --pods-per-workload pods');
    }
    return { pods: flags.workloads * flags['pods-per-workload'], nodes: flags.nodes ?? 4 };
  }
  if (SCENARIOS[scenarioName].perNode === true) {
    if (flags.pods !== undefined) {
      throw new BenchFlagError(`--pods: ${scenarioName} has one pod per node; set --nodes`);
    }
    const nodes = flags.nodes ?? DEFAULT_PER_NODE_NODES;
    return { pods: nodes, nodes };
  }
  return { pods: flags.pods ?? 1_000, nodes: flags.nodes ?? 4 };
}

/** Parses the command line; throws BenchFlagError naming the flag. */
export function parseBenchCommand(argv: readonly string[]): BenchCommand {
  const { positionals, flags } = parseFlagValues(argv);
  const scenarioName = parseScenario(positionals);
  const { pods, nodes } = podsAndNodes(scenarioName, flags);
  // Room for every pod plus a surge, spread over the nodes.
  const podsPerNode = flags['pods-per-node'] ?? Math.min(4094, Math.max(110, Math.ceil((pods * 1.25) / nodes)));
  if (podsPerNode * nodes < pods) {
    throw new BenchFlagError(
      `--pods-per-node: ${String(nodes)} nodes × ${String(podsPerNode)} cannot hold ${String(pods)} pods`,
    );
  }
  const timeoutSeconds = flags['timeout-seconds'] ?? Math.max(300, Math.ceil(pods * 0.3));
  const contenderFlags = flags.contender.length > 0 ? flags.contender : DEFAULT_CONTENDERS[scenarioName];
  const openKruise = resolveOpenKruisePaths(
    { manager: flags['openkruise-manager'], source: flags['openkruise-source'] },
    process.env,
  );
  return {
    settings: {
      scenario: scenarioName,
      pods,
      nodes,
      podsPerNode,
      kubelet: {
        podStartDelayMs: flags['pod-start-delay-ms'],
        containerUpdateDelayMs: flags['container-update-delay-ms'],
        podDeleteDelayMs: flags['pod-delete-delay-ms'],
        podParallelism: flags['kubelet-parallelism'],
      },
      clientQps: flags.qps,
      clientBurst: flags.burst,
      schedulerQps: flags['scheduler-qps'],
      maxUnavailable: flags['max-unavailable'],
      kubernetesVersion: '',
      freshClusterPerContender: true,
      timeoutSeconds,
      ...(flags['apiserver-profile-seconds'] > 0
        ? { apiserverProfileSeconds: flags['apiserver-profile-seconds'] }
        : {}),
      ...(SCENARIOS[scenarioName].perNode === true ? { jobRunMs: flags['job-run-ms'] } : {}),
    },
    scenario: {
      pods,
      maxUnavailable: flags['max-unavailable'],
      workloads: flags.workloads,
      podsPerWorkload: flags['pods-per-workload'],
      churnPercent: flags['churn-percent'],
      timeoutMs: timeoutSeconds * 1000,
      jobRunMs: flags['job-run-ms'],
      idleSeconds: flags['idle-seconds'],
      idleWindowSeconds: flags['idle-window-seconds'],
    },
    contenders: withReadyUrls(
      contenderFlags.map((flag) => contenderFromFlag(flag, scenarioName, openKruise)),
      flags['contender-ready'],
    ),
    outDir: flags.out,
  };
}
