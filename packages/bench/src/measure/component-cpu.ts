/**
 * CPU seconds each control-plane process (kube-apiserver, etcd, kwok, ...) used in the measured
 * window. On a machine where they share the cores with the contender, where the CPU went tells
 * whether a rollout waited for the API server or for something else.
 */
import { processCpuSeconds } from './process-sampler.ts';

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
  const start = await Promise.all(processes.map(async (process) => ({ process, seconds: await processCpuSeconds(process.pid) })));
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
