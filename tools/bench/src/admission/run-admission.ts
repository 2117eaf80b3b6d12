/**
 * The admission-latency run: one local control plane (the benchmark's, with its audit log), the
 * CloneSet CRD, then two phases, each with a launcher of its own and a namespace of its own:
 *
 * - `webhook`: the launcher registers the CloneSet validation webhook for its namespace, as
 *   `npm run controllers` does (`--webhook-local-configuration`, failurePolicy Ignore);
 * - `no webhook`: the same launcher and flags with `--cloneset-validation-webhook=false`.
 *
 * Restarting rather than sending the baseline to a namespace the webhook does not select: a launcher
 * restricted with --namespace reconciles only that namespace, so a baseline in another one would also
 * lack the controller's work on each new CloneSet (its status write), which competes with the loop
 * for the same two cores. This way the phases differ in the webhook alone (and in which namespace,
 * both fresh and empty).
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';

import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';

import { createClient, Transport } from '@kruise-ts/controller-runtime';
import { applyCrdFiles, KUBERNETES_VERSION, startLocalCluster } from '@kruise-ts/local-cluster';
import type { LocalCluster } from '@kruise-ts/local-cluster';

import { auditPolicyYaml } from '../collect/index.ts';
import { REPOSITORY_ROOT } from '../contenders/command-contender.ts';
import { machineInfo } from '../run/run-bench.ts';
import { createContenderIdentity } from '../run/identity.ts';
import { BENCH_WEBHOOK_CONFIGURATION } from '../scenarios/sidecarset-scale.ts';
import { LOOP_IMAGE } from './cloneset.ts';
import type { AdmissionOptions } from './flags.ts';
import { runPhase } from './phase.ts';
import type { PhaseEnvironment, PhasePlan } from './phase.ts';
import { BASELINE_PHASE, WEBHOOK_PHASE } from './result.ts';
import type { AdmissionPhase, AdmissionResult } from './result.ts';
import { statsDifference } from './stats.ts';
import { ADMISSION_WEBHOOK } from './webhook.ts';

const USER_AGENT = 'kruise-ts-bench-admission';
/** The launcher's app CRDs with --feature-gates=CloneSet=true (Advanced StatefulSet stays on by default). */
const CRD_FILES = ['apps.kruise.io_clonesets.yaml', 'apps.kruise.io_statefulsets.yaml'];
const COMMON_ARGS = [
  '--feature-gates=CloneSet=true',
  `--webhook-local-configuration=${BENCH_WEBHOOK_CONFIGURATION}`,
  '--webhook-port=0',
];
const BASELINE =
  'the same launcher flags with --cloneset-validation-webhook=false (a new process), in a namespace of its own';

export const PHASES: readonly PhasePlan[] = [
  {
    name: WEBHOOK_PHASE,
    namespace: 'admission-webhook',
    launcherArgs: [...COMMON_ARGS, '--namespace=admission-webhook'],
    webhook: true,
  },
  {
    name: BASELINE_PHASE,
    namespace: 'admission-baseline',
    launcherArgs: [...COMMON_ARGS, '--namespace=admission-baseline', '--cloneset-validation-webhook=false'],
    webhook: false,
  },
];

async function prepare(
  cluster: LocalCluster,
  options: AdmissionOptions,
  log: (line: string) => void,
): Promise<PhaseEnvironment> {
  const admin = new KubeConfig();
  admin.loadFromFile(cluster.kubeconfigPath);
  await applyCrdFiles(
    admin,
    CRD_FILES.map((file) => path.join(REPOSITORY_ROOT, 'crds', file)),
  );
  const core = admin.makeApiClient(CoreV1Api);
  for (const phase of PHASES) {
    await core.createNamespace({ body: { metadata: { name: phase.namespace } } });
  }
  const identity = await createContenderIdentity(admin, cluster.runDir);
  // No client-side rate limit: one request in flight never reaches one anyway, and a limiter's wait would be timed.
  const client = createClient(new Transport({ kubeConfig: admin, qps: 0, burst: 0, userAgent: USER_AGENT }));
  return { cluster, client, userAgent: USER_AGENT, identity, options, log };
}

function phaseNamed(phases: readonly AdmissionPhase[], name: AdmissionPhase['name']): AdmissionPhase {
  const phase = phases.find((candidate) => candidate.name === name);
  if (phase === undefined) {
    throw new Error(`no ${name} phase`);
  }
  return phase;
}

function assemble(input: {
  startedAt: Date;
  command: string;
  options: AdmissionOptions;
  phases: readonly AdmissionPhase[];
}): AdmissionResult {
  const webhook = phaseNamed(input.phases, WEBHOOK_PHASE);
  const baseline = phaseNamed(input.phases, BASELINE_PHASE);
  return {
    schemaVersion: 1,
    benchmark: 'admission-latency',
    startedAt: input.startedAt.toISOString(),
    command: input.command,
    settings: {
      creates: input.options.creates,
      warmup: input.options.warmup,
      runtime: input.options.runtime,
      webhookName: ADMISSION_WEBHOOK.name,
      webhookPath: ADMISSION_WEBHOOK.path,
      image: LOOP_IMAGE,
      kubernetesVersion: KUBERNETES_VERSION,
      baseline: BASELINE,
    },
    machine: machineInfo(),
    phases: input.phases,
    webhookAdds: statsDifference(webhook.client, baseline.client),
    webhookAddsServerSide: statsDifference(webhook.server, baseline.server),
  };
}

/** Runs both phases on one control plane; the control plane is stopped however the run ends. */
export async function runAdmission(
  options: AdmissionOptions,
  input: { readonly command: string; readonly log: (line: string) => void },
): Promise<AdmissionResult> {
  const startedAt = new Date();
  await mkdir(options.workDir, { recursive: true });
  input.log('starting a control plane');
  const cluster = await startLocalCluster({
    name: 'bench-admission',
    runDir: path.join(options.workDir, 'cluster'),
    // No pod is ever made (replicas 0): one fake node keeps kwok out of the way.
    nodes: 1,
    auditPolicy: auditPolicyYaml(),
    log: (line) => {
      input.log(`  [cluster] ${line}`);
    },
  });
  try {
    const env = await prepare(cluster, options, input.log);
    const phases: AdmissionPhase[] = [];
    for (const plan of PHASES) {
      phases.push(await runPhase(plan, env));
    }
    return assemble({ startedAt, command: input.command, options, phases });
  } finally {
    await cluster.stop();
    await rm(path.join(cluster.runDir, 'etcd'), { recursive: true, force: true });
  }
}
