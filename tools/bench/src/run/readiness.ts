/**
 * Waiting until a started contender is ready, before the scenario's preparation: an external
 * controller may need seconds (a webhook server, certificates, informer caches), and a preparation
 * started earlier would time its workloads' creation against a controller that is not there yet.
 */
import http from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';

import { expandPlaceholders } from '../contenders/command-contender.ts';
import type { Contender, ContenderContext, RunningContender } from '../contenders/contender.ts';

/** What must answer, and how. */
export interface ReadinessTarget {
  /** Every one of them must pass (our per-app contender serves one /metrics per process). */
  readonly urls: readonly string[];
  /** `2xx`: a declared ready URL (a `/readyz`); `answer`: any HTTP answer at all (a /metrics server that listens). */
  readonly want: '2xx' | 'answer';
}

export interface ReadinessWait {
  /** From `startedAt`: then the contender fails. */
  readonly timeoutMs: number;
  readonly intervalMs: number;
  /** `performance.now()` when the contender was started (the seconds returned count from there); now when absent. */
  readonly startedAt?: number;
  /** False once the contender's process is gone: the rest of the timeout would be waited for nothing. */
  readonly alive?: () => boolean;
}

/** A single request's outcome: passed, or why not (the status, or the connection's error). */
interface ProbeOutcome {
  readonly passed: boolean;
  readonly detail: string;
}

const MAX_PROBE_TIMEOUT_MS = 2_000;
/** The last probe comes at the deadline: it may overshoot it by this much rather than report a timeout of its own making. */
const MIN_PROBE_TIMEOUT_MS = 250;

/**
 * What tells that `running` is ready: its declared URL (placeholders expanded with the ports it was
 * given), else the one it knows once started, else its /metrics endpoints; undefined when it has neither (the native baseline runs with
 * the cluster; an external command without `{metricsPort}` says nothing).
 */
export function readinessTarget(
  contender: Pick<Contender, 'readyUrl'>,
  running: Pick<RunningContender, 'metricsUrls' | 'readyUrl'>,
  context: Pick<ContenderContext, 'kubeconfigPath' | 'metricsPorts' | 'qps' | 'burst'>,
): ReadinessTarget | undefined {
  if (contender.readyUrl !== undefined) {
    return { urls: [expandPlaceholders(contender.readyUrl, context)], want: '2xx' };
  }
  if (running.readyUrl !== undefined) {
    return { urls: [running.readyUrl], want: '2xx' };
  }
  return running.metricsUrls.length > 0 ? { urls: running.metricsUrls, want: 'answer' } : undefined;
}

/** One GET; never rejects. */
function probe(url: URL, want: ReadinessTarget['want'], timeoutMs: number): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    const onResponse = (response: http.IncomingMessage): void => {
      response.resume();
      const status = response.statusCode ?? 0;
      resolve({ passed: want === 'answer' || (status >= 200 && status < 300), detail: `HTTP ${String(status)}` });
    };
    // A fresh connection per probe (no pooled socket outlives the wait). HTTPS as the kubelet's
    // probes do it: a webhook server's own certificate is not verified.
    const request =
      url.protocol === 'https:'
        ? https.get(url, { agent: false, timeout: timeoutMs, rejectUnauthorized: false }, onResponse)
        : http.get(url, { agent: false, timeout: timeoutMs }, onResponse);
    request.on('timeout', () => {
      request.destroy(new Error(`no answer within ${String(timeoutMs)} ms`));
    });
    request.on('error', (error) => {
      resolve({ passed: false, detail: error.message });
    });
  });
}

function describeWanted(want: ReadinessTarget['want']): string {
  return want === '2xx' ? 'a 2xx answer' : 'an HTTP answer';
}

/**
 * Polls every URL of `target` until each has passed once; returns the seconds since the contender
 * started. Throws, naming the contender and the URLs still failing with their last outcome, when the
 * timeout passes or the contender's process is gone.
 */
export async function waitUntilReady(name: string, target: ReadinessTarget, wait: ReadinessWait): Promise<number> {
  const startedAt = wait.startedAt ?? performance.now();
  const deadline = startedAt + wait.timeoutMs;
  let pending = target.urls.map((url) => new URL(url));
  for (;;) {
    const timeoutMs = Math.min(MAX_PROBE_TIMEOUT_MS, Math.max(MIN_PROBE_TIMEOUT_MS, deadline - performance.now()));
    const outcomes = await Promise.all(pending.map((url) => probe(url, target.want, timeoutMs)));
    const failing = pending.flatMap((url, index) =>
      outcomes[index]?.passed === true ? [] : [`${url.href} (last: ${outcomes[index]?.detail ?? 'no answer'})`],
    );
    pending = pending.filter((_url, index) => outcomes[index]?.passed !== true);
    if (pending.length === 0) {
      return (performance.now() - startedAt) / 1000;
    }
    if (wait.alive?.() === false) {
      throw new Error(
        `contender ${name} exited before it was ready: waited for ${describeWanted(target.want)} from ${failing.join(', ')}`,
      );
    }
    if (performance.now() >= deadline) {
      throw new Error(
        `contender ${name} not ready within ${String(wait.timeoutMs / 1000)} s: waited for ${describeWanted(target.want)} from ${failing.join(', ')}`,
      );
    }
    await sleep(Math.min(wait.intervalMs, Math.max(0, deadline - performance.now())));
  }
}
