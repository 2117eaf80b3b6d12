/**
 * One container of a pod across its restarts: started, probed, restarted after the kubelet's
 * back-off when it exits (as `restartPolicy` says), stopped gracefully when the pod goes away.
 */
import type { V1Container, V1Probe } from '@kubernetes/client-node';

import { ContainerProcess } from './container-process.ts';
import type { ContainerExit, ContainerProcessSpec } from './container-process.ts';
import type { ContainerState, ContainerView, TerminatedState } from './container-state.ts';
import { CrashLoopBackoff } from './crash-loop-backoff.ts';
import type { CrashLoopBackoffOptions } from './crash-loop-backoff.ts';
import { ProbeWorker } from './probes.ts';
import type { ProbeTarget } from './probes.ts';

/** The container cannot be started yet; it waits with this reason and tries again later. */
export class ContainerWaitError extends Error {
  readonly reason: string;

  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The command cannot be run (not found): reported as a StartError exit, then back-off. */
export class ContainerStartError extends Error {}

export interface ContainerWorkerOptions {
  readonly container: V1Container;
  readonly restartPolicy: string;
  readonly backoff: CrashLoopBackoffOptions;
  readonly probeTarget: ProbeTarget;
  /** Grace period for a container a liveness or startup probe failed. */
  readonly graceMs: number;
  /** The process to run, built for each start (volumes, env); throws ContainerWaitError or ContainerStartError. */
  readonly plan: (restartCount: number) => Promise<ContainerProcessSpec>;
  readonly onChange: () => void;
  readonly log: (line: string) => void;
}

const WAIT_RETRY_MS = 2_000;

function exitReason(exit: ContainerExit): string {
  if (exit.oomKilled) {
    return 'OOMKilled';
  }
  return exit.exitCode === 0 ? 'Completed' : 'Error';
}

export class ContainerWorker {
  readonly #options: ContainerWorkerOptions;
  readonly #backoff: CrashLoopBackoff;
  #state: ContainerState = { kind: 'waiting', reason: 'ContainerCreating' };
  #lastState: TerminatedState | undefined;
  #restartCount = 0;
  #started = false;
  #ready = false;
  #everStarted = false;
  #process: ContainerProcess | undefined;
  #probes: ProbeWorker[] = [];
  #terminating: { graceMs: number } | undefined;
  #wake: (() => void) | undefined;
  #loop: Promise<void> | undefined;

  constructor(options: ContainerWorkerOptions) {
    this.#options = options;
    this.#backoff = new CrashLoopBackoff(options.backoff);
  }

  get pid(): number | undefined {
    return this.#process?.pid;
  }

  view(): ContainerView {
    const { container } = this.#options;
    return { name: container.name, image: container.image ?? '', state: this.#state, lastState: this.#lastState, restartCount: this.#restartCount, started: this.#started, ready: this.#ready, everStarted: this.#everStarted };
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Stops the container (SIGTERM, then SIGKILL after `graceMs`) and for good; resolves when it exited. */
  async terminate(graceMs: number): Promise<void> {
    this.#terminating = { graceMs };
    this.#stopProbes();
    this.#wake?.();
    await this.#process?.stop(graceMs);
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (!this.#isTerminating()) {
      const exit = await this.#runOnce();
      // terminate() may have been called while the process ran.
      if (this.#isTerminating() || !this.#restarts(exit)) {
        return;
      }
      const delay = this.#backoff.next(this.#lastState?.startedAt.getTime() ?? Date.now(), Date.now());
      if (delay > 0) {
        const { container } = this.#options;
        this.#set({ kind: 'waiting', reason: 'CrashLoopBackOff', message: `back-off ${String(Math.round(delay / 1000))}s restarting failed container=${container.name}` });
        await this.#sleep(delay);
      }
      this.#restartCount += 1;
    }
  }

  #isTerminating(): boolean {
    return this.#terminating !== undefined;
  }

  #restarts(exit: ContainerExit | undefined): boolean {
    if (exit === undefined) {
      return true;
    }
    const policy = this.#options.restartPolicy;
    const restarts = policy === 'Always' || (policy === 'OnFailure' && exit.exitCode !== 0);
    if (!restarts && this.#lastState !== undefined) {
      this.#set({ kind: 'terminated', ...this.#lastState });
      this.#lastState = undefined;
    }
    return restarts;
  }

  /** One start; undefined when it waits (image, config) and should simply be tried again. */
  async #runOnce(): Promise<ContainerExit | undefined> {
    let spec: ContainerProcessSpec;
    try {
      spec = await this.#options.plan(this.#restartCount);
      this.#process = await ContainerProcess.start(spec);
    } catch (error) {
      return this.#failedStart(error);
    }
    const running = this.#process;
    this.#everStarted = true;
    this.#set({ kind: 'running', startedAt: running.startedAt, containerID: `process://${String(running.pid)}` });
    this.#startProbes();
    const exit = await running.exited;
    this.#stopProbes();
    this.#started = false;
    this.#ready = false;
    this.#lastState = { exitCode: exit.exitCode, reason: exitReason(exit), startedAt: running.startedAt, finishedAt: exit.finishedAt, containerID: `process://${String(running.pid)}`, ...(exit.signal === null ? {} : { signal: exit.exitCode - 128 }) };
    this.#options.log(`container ${this.#options.container.name} exited: code ${String(exit.exitCode)} (${this.#lastState.reason})`);
    this.#set({ kind: 'terminated', ...this.#lastState });
    return exit;
  }

  async #failedStart(error: unknown): Promise<ContainerExit | undefined> {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof ContainerWaitError) {
      this.#set({ kind: 'waiting', reason: error.reason, message });
      await this.#sleep(WAIT_RETRY_MS);
      if (error.reason === 'ErrImagePull') {
        this.#set({ kind: 'waiting', reason: 'ImagePullBackOff', message });
      }
      return undefined;
    }
    const now = new Date();
    this.#lastState = { exitCode: 128, reason: 'StartError', message, startedAt: now, finishedAt: now, containerID: '' };
    this.#options.log(`container ${this.#options.container.name} could not start: ${message}`);
    this.#set({ kind: 'terminated', ...this.#lastState });
    return { exitCode: 128, signal: null, oomKilled: false, finishedAt: now };
  }

  #startProbes(): void {
    const { container } = this.#options;
    if (container.startupProbe === undefined) {
      this.#onStarted();
      return;
    }
    this.#addProbe(container.startupProbe, (success) => {
      if (success) {
        this.#onStarted();
      } else {
        this.#restartForProbe('startup');
      }
    });
  }

  #onStarted(): void {
    const { container } = this.#options;
    this.#started = true;
    if (container.livenessProbe !== undefined) {
      this.#addProbe(container.livenessProbe, (success) => {
        if (!success) {
          this.#restartForProbe('liveness');
        }
      });
    }
    if (container.readinessProbe === undefined) {
      this.#ready = true;
    } else {
      this.#addProbe(container.readinessProbe, (success) => {
        this.#ready = success;
        this.#options.onChange();
      }).probeNow();
    }
    this.#options.onChange();
  }

  #addProbe(probe: V1Probe, onResult: (success: boolean) => void): ProbeWorker {
    const worker = new ProbeWorker(probe, this.#options.probeTarget, onResult);
    this.#probes.push(worker);
    worker.start();
    return worker;
  }

  #restartForProbe(kind: string): void {
    this.#options.log(`container ${this.#options.container.name} failed its ${kind} probe, will be restarted`);
    this.#stopProbes();
    void this.#process?.stop(this.#options.graceMs);
  }

  #stopProbes(): void {
    for (const probe of this.#probes) {
      probe.stop();
    }
    this.#probes = [];
  }

  #set(state: ContainerState): void {
    this.#state = state;
    this.#options.onChange();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
