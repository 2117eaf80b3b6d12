/**
 * Follows the benchmark's workloads through a watch (every status write is seen; polling would skip
 * the steps of a fast rollout) and records the summed replicas / updated / ready / available over
 * time, and when every workload is settled.
 */
import { createLogger, InformerFactory, objectKey } from '@kruise-ts/controller-runtime';
import type { Client, DeepReadonly } from '@kruise-ts/controller-runtime';

import type { StatusSample } from '../result.ts';
import { countersOf, isSettled, resourceOf } from './workloads.ts';
import type { Workload, WorkloadKind } from './workloads.ts';

export interface StatusRecorderOptions {
  readonly client: Client;
  readonly namespace: string;
  readonly kind: WorkloadKind;
}

/** A running recorder. */
export interface StatusRecorder {
  /** Clears the series and makes `t = 0` now. */
  startWindow(): void;
  /**
   * Resolves with the seconds since the window started when `expected` workloads exist, all are
   * settled and each of `options.touched` (namespace/name) was seen unsettled since the window
   * started; with `options.holdMs`, only once that has held for so long (the seconds are those of when it began):
   * a workload that lost two pods can look settled between its two replacements. Rejects on timeout.
   */
  waitUntilSettled(
    expected: number,
    timeoutMs: number,
    options?: { readonly touched?: readonly string[]; readonly holdMs?: number | undefined },
  ): Promise<number>;
  /** The samples since the window started. */
  series(): StatusSample[];
  stop(): void;
}

export async function startStatusRecorder(options: StatusRecorderOptions): Promise<StatusRecorder> {
  const stop = new AbortController();
  const factory = new InformerFactory({
    client: options.client,
    logger: createLogger({ level: 'silent' }),
    namespace: options.namespace,
  });
  const informer = factory.informerFor({ resource: resourceOf(options.kind) });
  let start = performance.now();
  let samples: StatusSample[] = [];
  let seenUnsettled = new Set<string>();
  const listeners = new Set<() => void>();
  const workloads = (): DeepReadonly<Workload>[] => informer.lister().list();
  /** Adds a sample when a counter changed; `at` fixes its time (the window's first sample is t = 0 by definition). */
  const record = (at?: number): void => {
    const sum = { replicas: 0, updated: 0, ready: 0, available: 0 };
    for (const workload of workloads()) {
      if (!isSettled(workload)) {
        seenUnsettled.add(objectKey(workload));
      }
      const counters = countersOf(workload);
      sum.replicas += counters.replicas;
      sum.updated += counters.updated;
      sum.ready += counters.ready;
      sum.available += counters.available;
    }
    const last = samples.at(-1);
    if (
      last?.replicas !== sum.replicas ||
      last.updated !== sum.updated ||
      last.ready !== sum.ready ||
      last.available !== sum.available
    ) {
      samples.push({ t: at ?? Math.round(performance.now() - start) / 1000, ...sum });
    }
    for (const listener of listeners) {
      listener();
    }
  };
  const onEvent = (): void => {
    record();
  };
  informer.addEventHandler({ onAdd: onEvent, onUpdate: onEvent, onDelete: onEvent });
  factory.start(stop.signal);
  await informer.waitForSync(stop.signal);
  return {
    startWindow() {
      start = performance.now();
      samples = [];
      seenUnsettled = new Set();
      // Summing the counters of many workloads can take a millisecond under load; the first sample is the window's start.
      record(0);
    },
    async waitUntilSettled(expected, timeoutMs, { touched = [], holdMs = 0 } = {}) {
      return new Promise<number>((resolve, reject) => {
        let held: { readonly since: number; readonly timer: NodeJS.Timeout } | undefined;
        const check = (): void => {
          const all = workloads();
          const noticed = touched.every((key) => seenUnsettled.has(key));
          const settled = noticed && all.length === expected && all.every((workload) => isSettled(workload));
          if (!settled) {
            clearTimeout(held?.timer);
            held = undefined;
          } else if (held === undefined) {
            const since = performance.now();
            held = {
              since,
              timer: setTimeout(() => {
                finish();
                resolve((since - start) / 1000);
              }, holdMs),
            };
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(
            new Error(
              `not every ${options.kind} of namespace ${options.namespace} settled within ${String(timeoutMs / 1000)} s`,
            ),
          );
        }, timeoutMs);
        const finish = (): void => {
          clearTimeout(timer);
          clearTimeout(held?.timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    series: () => [...samples],
    stop() {
      stop.abort();
    },
  };
}
