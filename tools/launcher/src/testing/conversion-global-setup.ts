/**
 * Second global setup of the integration project (after the control plane's): starts the test run's
 * conversion webhook (conversion-webhook-process.ts, a process of its own: this one cannot resolve the
 * workspace packages' sources) and stops it at the end of the run.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { TestProject } from 'vitest/node';

const PROCESS = fileURLToPath(new URL('./conversion-webhook-process.ts', import.meta.url));
const READY_TIMEOUT_MS = 120_000;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const child = spawn(
    process.execPath,
    ['--conditions=@kruise-ts/source', PROCESS, project.getProvidedContext().kubeconfigPath],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new Error(
          `the test run's conversion webhook was not ready within ${String(READY_TIMEOUT_MS / 1000)} s:\n${output}`,
        ),
      );
    }, READY_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/^ready /m.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new Error(`the test run's conversion webhook exited (code ${String(code)}) before it was ready:\n${output}`),
      );
    });
  });
  await ready;
  process.stderr.write(
    `[local-cluster] conversion webhook for this test run: ${output.match(/^ready (\S+)/m)?.[1] ?? '?'}\n`,
  );
  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    child.kill('SIGKILL');
  };
}
