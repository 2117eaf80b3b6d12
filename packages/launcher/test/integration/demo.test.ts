/**
 * `npm run demo` and the all-in-one launcher as a user runs them, against the test run's control
 * plane (given through $KUBECONFIG, as a user with a cluster would).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { fileURLToPath } from 'node:url';

import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, inject, it } from 'vitest';

import { freeLoopbackPort } from '@kruise-ts/local-cluster';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

const DEMO = fileURLToPath(new URL('../../src/demo/main.ts', import.meta.url));
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

interface Run {
  readonly output: () => string;
  /** The exit code, or the name of the signal that ended the process. */
  readonly exited: Promise<number | string>;
  kill(signal: NodeJS.Signals): void;
}

function run(script: string, args: readonly string[]): Run {
  const child = spawn(process.execPath, ['--conditions=@kruise-ts/source', script, ...args], {
    env: { ...process.env, KUBECONFIG: inject('kubeconfigPath') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve(code ?? signal ?? 'unknown');
    });
  });
  return { output: () => output, exited, kill: (signal) => child.kill(signal) };
}

async function deleteNamespace(name: string): Promise<void> {
  await testKubeConfig().makeApiClient(CoreV1Api).deleteNamespace({ name }).catch(() => undefined);
}

describe('npm run demo', () => {
  it('runs to its summary: 5 pods scaled out, updated in place with a partition, all kept', async () => {
    const namespace = `demo-${randomBytes(3).toString('hex')}`;
    try {
      const demo = run(DEMO, ['--namespace', namespace]);
      const exitCode = await demo.exited;
      const output = demo.output();
      expect(exitCode, output).toBe(0);
      expect(output).toContain("== The document's sample CloneSet: sample, 5 replicas");
      expect(output).toContain('== In-place update to nginx:mainline, partition 3');
      expect(output).toMatch(/sample {2}desired 5 {2}replicas 5 {2}updated 2 {2}ready 5 {2}available 5/);
      expect(output).toContain('== Summary');
      expect(output).toContain('pods kept through the update (same UID):   5/5, container restarts 5');
      expect(output).toContain('controller writes per pod for the update:  3.0');
      expect(output).toContain('== An Advanced StatefulSet next to it');
      expect(output).toMatch(/Advanced StatefulSet demo-db: 3 pods with a PVC each in [\d.]+s, updated in place in [\d.]+s, pods kept 3\/3, PVCs kept 3\/3/);
    } finally {
      await deleteNamespace(namespace);
    }
  }, 240_000);

  it('stops what it started on Ctrl-C, with exit code 130', async () => {
    const namespace = `demo-${randomBytes(3).toString('hex')}`;
    try {
      const demo = run(DEMO, ['--namespace', namespace, '--keep']);
      await waitFor(() => Promise.resolve(demo.output().includes('The controllers keep running')), { description: 'the demo to reach its summary', timeoutMs: 180_000 });
      demo.kill('SIGINT');
      expect(await demo.exited).toBe(130);
      expect(demo.output()).toContain('Ctrl-C: stopping what the demo started');
    } finally {
      await deleteNamespace(namespace);
    }
  }, 240_000);
});

describe('the all-in-one launcher', () => {
  it('rejects bad flags with exit code 2 naming the flag', async () => {
    const launcher = run(CLI, ['--workers=many']);
    expect(await launcher.exited).toBe(2);
    expect(launcher.output()).toContain('--workers');
  });

  it('refuses to run when no app is enabled', async () => {
    const launcher = run(CLI, ['--feature-gates=CloneSet=false,AdvancedStatefulSet=false']);
    expect(await launcher.exited).toBe(2);
    expect(launcher.output()).toContain('no app is enabled by --feature-gates');
  });

  it('runs the enabled controllers and stops on SIGTERM', async () => {
    const launcher = run(CLI, ['--leader-elect=false', '--metrics-bind-address=0', '--health-probe-bind-address=0', '--log-format=text']);
    await waitFor(() => Promise.resolve(launcher.output().includes('Running controllers')), { description: 'the launcher to start' });
    expect(launcher.output()).toMatch(/INFO {2}Running controllers app=all-in-one apps="\[\\"cloneset\\",\\"advanced-statefulset\\"\]"/);
    launcher.kill('SIGTERM');
    expect(await launcher.exited).toBe(0);
  });

  it('serves the SidecarSet pod webhook over HTTPS on its own certificate when the SidecarSet gate is on', async () => {
    const port = await freeLoopbackPort();
    const args = ['--leader-elect=false', '--metrics-bind-address=0', '--health-probe-bind-address=0', '--feature-gates=SidecarSet=true', `--webhook-port=${String(port)}`, '--webhook-host=127.0.0.1'];
    const launcher = run(CLI, args);
    try {
      const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'u1', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, operation: 'CREATE', namespace: 'default', userInfo: {}, object: { metadata: { labels: { app: 'none' } }, spec: { containers: [{ name: 'c' }] } } } };
      const answer = await waitFor(() => postInsecure(`https://127.0.0.1:${String(port)}/mutate-pod`, review).catch(() => undefined), { description: 'the webhook answering', timeoutMs: 30_000 });
      expect(answer).toMatchObject({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u1', allowed: true } });
      expect(launcher.output()).toContain('sidecarset');
    } finally {
      launcher.kill('SIGTERM');
      expect(await launcher.exited).toBe(0);
    }
  });
});

/** POSTs JSON over HTTPS without checking the (self-signed) certificate; the parsed answer. */
function postInsecure(url: string, body: object): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, { method: 'POST', rejectUnauthorized: false, headers: { 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      response.on('end', () => {
        try {
          resolve(JSON.parse(text) as unknown);
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}
