import https from 'node:https';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { LocalClusterError } from './errors.ts';
import { readLogTail } from './log-tail.ts';
import type { StartedProcess } from './process-group.ts';

export interface WaitUntilReadyOptions {
  readonly process: StartedProcess;
  /** True once the component serves; errors count as not yet. */
  readonly probe: () => Promise<boolean>;
  readonly timeoutMs: number;
  readonly intervalMs?: number;
}

/**
 * Polls a readiness probe until it passes. Fails as soon as the process exits, or when the timeout
 * passes, with the component's log tail in the error: a start-up never hangs and never fails mutely.
 */
export async function waitUntilReady(options: WaitUntilReadyOptions): Promise<void> {
  const { process: child } = options;
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    const exit = child.exitInfo();
    if (exit !== undefined) {
      const how = exit.code === null ? `signal ${String(exit.signal)}` : `code ${String(exit.code)}`;
      throw await componentFailure(child, `exited with ${how} before becoming ready`);
    }
    if (await options.probe().catch(() => false)) {
      return;
    }
    await sleep(options.intervalMs ?? 200);
  }
  throw await componentFailure(child, `did not become ready within ${String(Math.round(options.timeoutMs / 1000))}s`);
}

export async function componentFailure(child: StartedProcess, summary: string): Promise<LocalClusterError> {
  return new LocalClusterError(summary, {
    component: child.name,
    logFile: child.logFile,
    logTail: await readLogTail(child.logFile),
  });
}

export interface HttpProbeOptions {
  /** CA to verify the server with; without it TLS is not verified (self-signed component certs). */
  readonly caPem?: string;
  readonly expectBody?: RegExp;
}

/** GET `url`; passes on HTTP 200 (and a matching body, when asked). */
export async function httpProbe(url: string, options: HttpProbeOptions = {}): Promise<boolean> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.get(
      target,
      { timeout: 2000, ...(target.protocol === 'https:' ? tlsOptions(options.caPem) : {}) },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => {
          resolve(response.statusCode === 200 && (options.expectBody?.test(body) ?? true));
        });
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => {
      resolve(false);
    });
  });
}

function tlsOptions(caPem: string | undefined): https.RequestOptions {
  return caPem === undefined ? { rejectUnauthorized: false } : { ca: caPem };
}
