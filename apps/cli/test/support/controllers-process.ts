/**
 * The controllers for an integration test of the CLI, as a user runs them locally: the launcher's
 * all-in-one process (`npm run controllers`), scoped to the test's namespace, with its webhooks
 * registered for that namespace alone. A process of its own, because the CLI is an app and may not
 * import the others; the launcher is what runs them together.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { waitFor } from '@kruise-ts/local-cluster/testing';

const LAUNCHER = fileURLToPath(new URL('../../../../tools/launcher/src/cli.ts', import.meta.url));

export interface ControllersProcess extends AsyncDisposable {
  /** Everything the process printed so far (its JSON logs), for a failing test's message. */
  readonly output: () => string;
}

export interface ControllersOptions {
  readonly kubeconfigPath: string;
  readonly namespace: string;
  /** `CloneSet=true,BroadcastJob=true`. */
  readonly featureGates: string;
}

/** Starts the controllers and waits until they run (and registered their webhooks). */
export async function startControllersProcess(options: ControllersOptions): Promise<ControllersProcess> {
  const args = [
    '--conditions=@kruise-ts/source',
    LAUNCHER,
    `--kubeconfig=${options.kubeconfigPath}`,
    `--feature-gates=${options.featureGates}`,
    `--namespace=${options.namespace}`,
    `--webhook-local-configuration=kruise-ts-test-${options.namespace}`,
    // The test run's converter serves the CRDs' conversions; this process must not take them over.
    '--webhook-local-conversion=false',
    '--webhook-port=0',
    '--leader-elect=false',
    '--metrics-bind-address=0',
    '--health-probe-bind-address=0',
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBECONFIG: '' },
  });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    await waitFor(
      () =>
        Promise.resolve(
          output.includes('"msg":"Running controllers"')
            ? true
            : child.exitCode !== null
              ? Promise.reject(new Error(output))
              : undefined,
        ),
      {
        description: 'the controllers running',
        timeoutMs: 60_000,
        state: () => Promise.resolve(output),
      },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { output: () => output, [Symbol.asyncDispose]: stop };
}
