/**
 * CPU seconds each control-plane process (kube-apiserver, etcd, kwok, ...) used in the measured
 * window. On a machine where they share the cores with the contender, where the CPU went tells
 * whether a rollout waited for the API server or for something else.
 */
import type { ComponentIdleFigures } from '../result.ts';
import { processCpuSeconds, processRssBytes } from './process-sampler.ts';

export interface NamedProcess {
  readonly name: string;
  readonly pid: number;
}

export interface ComponentCpuWindow {
  /** CPU seconds per process name since the window started (processes gone meanwhile are left out). */
  readonly end: () => Promise<Record<string, number>>;
}

/** Reads every process's CPU time now; `end()` returns what each used since. */
export async function startComponentCpuWindow(processes: readonly NamedProcess[]): Promise<ComponentCpuWindow> {
  const start = await Promise.all(
    processes.map(async (process) => ({ process, seconds: await processCpuSeconds(process.pid) })),
  );
  return {
    end: async () => {
      const used: Record<string, number> = {};
      for (const { process, seconds } of start) {
        const now = await processCpuSeconds(process.pid);
        if (seconds !== undefined && now !== undefined) {
          used[process.name] = Number((now - seconds).toFixed(2));
        }
      }
      return used;
    },
  };
}

/**
 * Each process's figures over an idle window of `seconds` that `idle` spans: how the control plane's
 * memory and idle CPU grow with the pods stored is part of what one controller process costs a cluster.
 */
export async function componentIdleFigures<T>(
  processes: readonly NamedProcess[],
  seconds: number,
  idle: () => Promise<T>,
): Promise<{ result: T; components: Record<string, ComponentIdleFigures> }> {
  const window = await startComponentCpuWindow(processes);
  const result = await idle();
  const used = await window.end();
  const components: Record<string, ComponentIdleFigures> = {};
  for (const process of processes) {
    const cpuSeconds = used[process.name];
    const rssBytes = await processRssBytes(process.pid);
    if (cpuSeconds !== undefined && rssBytes !== undefined) {
      components[process.name] = { cpuCores: Number((cpuSeconds / seconds).toFixed(4)), rssBytes };
    }
  }
  return { result, components };
}
