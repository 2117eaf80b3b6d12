/**
 * Issue 20's table through kubectl: the all-in-one process (CloneSet, Advanced StatefulSet and
 * BroadcastJob with their validation webhooks, registered by --webhook-local-configuration for this
 * namespace, fail-open as in production), and `kubectl create --dry-run=server` of every case of
 * template-validation-cases.ts: each invalid one refused naming its field path, each valid one
 * accepted.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { createLogger } from '@kruise-ts/controller-runtime';
import {
  applyCrdFiles,
  createTestNamespace,
  testKubeConfig,
  toolBinary,
  waitFor,
} from '@kruise-ts/local-cluster/testing';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';

import { launcherFlagsSchema } from '../../src/apps.ts';
import { startControllers } from '../../src/controllers.ts';
import type { RunningControllers } from '../../src/controllers.ts';
import { INVALID_CASES, VALID_CASES, workloadOf } from './template-validation-cases.ts';
import type { WorkloadKind } from './template-validation-cases.ts';

const CRDS = [
  'apps.kruise.io_clonesets.yaml',
  'apps.kruise.io_statefulsets.yaml',
  'apps.kruise.io_broadcastjobs.yaml',
].map((file) => path.join(import.meta.dirname, '../../../../crds', file));
const WEBHOOK_OF: Record<WorkloadKind, string> = {
  CloneSet: 'vcloneset.kruise-ts.io',
  StatefulSet: 'vstatefulset.kruise-ts.io',
  BroadcastJob: 'vbroadcastjob.kruise-ts.io',
};
/** kubectl processes at once (the machine has two cores; the API server and the controllers share them). */
const CONCURRENCY = 4;

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let kubectlPath = '';
let namespace: TestNamespace;
let controllers: RunningControllers;

/** `kubectl create --dry-run=server -f -` of `object` in the test namespace. */
function createDryRun(object: object): Promise<Outcome> {
  const args = [
    '--kubeconfig',
    inject('kubeconfigPath'),
    '-n',
    namespace.name,
    'create',
    '--dry-run=server',
    '-o',
    'name',
    '-f',
    '-',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(kubectlPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(JSON.stringify(object));
  });
}

async function inBatches<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += CONCURRENCY) {
    results.push(...(await Promise.all(items.slice(start, start + CONCURRENCY).map(run))));
  }
  return results;
}

beforeAll(async () => {
  const kubeConfig = testKubeConfig();
  kubectlPath = path.join(path.dirname(await toolBinary('kube')), 'kubectl');
  await applyCrdFiles(kubeConfig, CRDS);
  namespace = await createTestNamespace(kubeConfig, 'template-validation');
  const flags = launcherFlagsSchema.parse({
    'feature-gates': 'CloneSet=true,AdvancedStatefulSet=true,BroadcastJob=true',
    'leader-elect': 'false',
    'metrics-bind-address': '0',
    'health-probe-bind-address': '0',
    namespace: namespace.name,
    'webhook-local-configuration': `kruise-ts-test-${namespace.name}`,
    // The test run's converter serves the CRDs' conversions; this process must not take them over.
    'webhook-local-conversion': 'false',
    'webhook-port': '0',
  });
  controllers = startControllers({ flags, kubeConfig, logger: createLogger({ level: 'silent' }) });
  // The configurations reach the API server's own cache a moment after they are written.
  await waitFor(
    async () => {
      const outcomes = await Promise.all(
        (['CloneSet', 'StatefulSet', 'BroadcastJob'] as const).map((kind) =>
          createDryRun(workloadOf(kind, 'probe', { container: { name: 'Probe' } })),
        ),
      );
      return outcomes.every((outcome, index) => outcome.stderr.includes(Object.values(WEBHOOK_OF)[index] ?? ''))
        ? true
        : undefined;
    },
    { description: 'the API server calling the three validation webhooks', timeoutMs: 60_000, intervalMs: 500 },
  );
}, 120_000);

afterAll(async () => {
  await controllers.stop();
  await namespace[Symbol.asyncDispose]();
});

describe('kubectl create --dry-run=server against the validation webhooks', () => {
  it(`refuses each of the ${String(INVALID_CASES.length)} invalid templates, naming the field path`, async () => {
    expect(INVALID_CASES.length).toBeGreaterThanOrEqual(40);
    const outcomes = await inBatches(INVALID_CASES, async (testCase) => ({
      testCase,
      outcome: await createDryRun(workloadOf(testCase.kind, testCase.name, testCase)),
    }));
    const wrong = outcomes.filter(({ testCase, outcome }) => {
      const byWebhook = outcome.stderr.includes(`admission webhook "${WEBHOOK_OF[testCase.kind]}" denied the request`);
      return outcome.code === 0 || !outcome.stderr.includes(testCase.field) || byWebhook === testCase.cel;
    });
    expect(
      wrong.map(
        ({ testCase, outcome }) => `${testCase.name}: exit ${String(outcome.code)}: ${outcome.stdout}${outcome.stderr}`,
      ),
    ).toEqual([]);
  }, 300_000);

  it(`accepts each of the ${String(VALID_CASES.length)} templates from the OpenKruise and Kubernetes docs`, async () => {
    expect(VALID_CASES.length).toBeGreaterThanOrEqual(20);
    const outcomes = await inBatches(VALID_CASES, async (testCase) => ({
      testCase,
      outcome: await createDryRun(workloadOf(testCase.kind, testCase.name, testCase)),
    }));
    const refused = outcomes.filter(
      ({ testCase, outcome }) => outcome.code !== 0 || !outcome.stdout.includes(`/${testCase.name}`),
    );
    expect(refused.map(({ testCase, outcome }) => `${testCase.name}: ${outcome.stderr}`)).toEqual([]);
  }, 300_000);
});
