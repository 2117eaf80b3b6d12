/**
 * Startup, liveness and readiness probes as the kubelet runs them: httpGet (2xx and 3xx succeed) and
 * tcpSocket against the pod's address and the host port its container port maps to; a result changes
 * only after `successThreshold` / `failureThreshold` probes in a row.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

import type { V1Probe } from '@kubernetes/client-node';

export interface ProbeTarget {
  readonly address: string;
  /** The host port of a container port, by number or name; undefined when the container declares no such name. */
  hostPort(port: number | string): number | undefined;
}

export type ProbeKind = 'startup' | 'liveness' | 'readiness';

function httpProbe(probe: V1Probe, target: ProbeTarget, timeoutMs: number): Promise<boolean> {
  const get = probe.httpGet;
  const port = get === undefined ? undefined : target.hostPort(get.port);
  if (get === undefined || port === undefined) {
    return Promise.resolve(false);
  }
  const client = get.scheme === 'HTTPS' ? https : http;
  const headers = Object.fromEntries((get.httpHeaders ?? []).map((header) => [header.name, header.value]));
  return new Promise((resolve) => {
    const request = client.get(
      {
        host: get.host ?? target.address,
        port,
        path: get.path ?? '/',
        timeout: timeoutMs,
        headers: { 'User-Agent': 'kube-probe/1.34', ...headers },
        rejectUnauthorized: false,
      },
      (response) => {
        response.resume();
        const code = response.statusCode ?? 0;
        resolve(code >= 200 && code < 400);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => {
      resolve(false);
    });
  });
}

function tcpProbe(probe: V1Probe, target: ProbeTarget, timeoutMs: number): Promise<boolean> {
  const port = probe.tcpSocket === undefined ? undefined : target.hostPort(probe.tcpSocket.port);
  if (port === undefined) {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const socket = net.connect({ host: probe.tcpSocket?.host ?? target.address, port, timeout: timeoutMs }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('timeout', () => socket.destroy(new Error('timeout')));
    socket.on('error', () => {
      resolve(false);
    });
  });
}

/** One probe; exec and grpc probes always fail here (no container to exec in), and say so in the README. */
export function probeOnce(probe: V1Probe, target: ProbeTarget): Promise<boolean> {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
  if (probe.httpGet !== undefined) {
    return httpProbe(probe, target, timeoutMs);
  }
  if (probe.tcpSocket !== undefined) {
    return tcpProbe(probe, target, timeoutMs);
  }
  return Promise.resolve(false);
}

export interface ProbeWorkerOptions {
  readonly probe: V1Probe;
  readonly target: ProbeTarget;
  /** When the container started: `initialDelaySeconds` counts from then. */
  readonly startedAt: Date;
  readonly onResult: (success: boolean) => void;
}

/** Runs one probe of one container on its period until stopped; reports each change of its result. */
export class ProbeWorker {
  readonly #probe: V1Probe;
  readonly #target: ProbeTarget;
  readonly #startedAt: Date;
  readonly #onResult: (success: boolean) => void;
  #result: boolean | undefined;
  #streak = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: ProbeWorkerOptions) {
    this.#probe = options.probe;
    this.#target = options.target;
    this.#startedAt = options.startedAt;
    this.#onResult = options.onResult;
  }

  /**
   * The first probe once the initial delay has passed since the container started: at once for a
   * readiness probe added when the startup probe succeeded late, as the kubelet triggers one then.
   */
  start(): void {
    const dueAt = this.#startedAt.getTime() + (this.#probe.initialDelaySeconds ?? 0) * 1000;
    this.#schedule(Math.max(0, dueAt - Date.now()));
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    if (!this.#stopped) {
      this.#timer = setTimeout(() => void this.#tick(), delayMs);
    }
  }

  async #tick(): Promise<void> {
    const success = await probeOnce(this.#probe, this.#target);
    if (this.#stopped) {
      return;
    }
    this.#record(success);
    this.#schedule((this.#probe.periodSeconds ?? 10) * 1000);
  }

  #record(success: boolean): void {
    const sameAsLast = this.#streak !== 0 && this.#streak > 0 === success;
    this.#streak = sameAsLast ? this.#streak + (success ? 1 : -1) : success ? 1 : -1;
    const threshold = success ? (this.#probe.successThreshold ?? 1) : (this.#probe.failureThreshold ?? 3);
    if (Math.abs(this.#streak) >= threshold && this.#result !== success) {
      this.#result = success;
      this.#onResult(success);
    }
  }
}
