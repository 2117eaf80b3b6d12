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

function terminatedOf(running: ContainerProcess, exit: ContainerExit): TerminatedState {
  const signal = exit.signal === null ? {} : { signal: exit.exitCode - 128 };
  return {
    exitCode: exit.exitCode,
    reason: exitReason(exit),
    startedAt: running.startedAt,
    finishedAt: exit.finishedAt,
    containerID: `process://${String(running.pid)}`,
    ...signal,
  };
}

function withoutKind(state: ContainerState & { readonly kind: 'terminated' }): TerminatedState {
  const { exitCode, reason, message, signal, startedAt, finishedAt, containerID } = state;
  return {
    exitCode,
    reason,
    startedAt,
    finishedAt,
    containerID,
    ...(message === undefined ? {} : { message }),
    ...(signal === undefined ? {} : { signal }),
  };
}

/**
 * A plan that failed for a reason of the moment (the API server unreachable while a token or a
 * Secret is read) leaves the container waiting to be tried again, as a kubelet's failed volume mount
 * does; only a command that cannot run is a StartError (an exit, with back-off).
 */
function asWaitUnlessStartError(error: unknown): never {
  if (error instanceof ContainerStartError || error instanceof ContainerWaitError) {
    throw error;
  }
  throw new ContainerWaitError('ContainerCreating', error instanceof Error ? error.message : String(error));
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
    return {
      name: container.name,
      image: container.image ?? '',
      state: this.#state,
      lastState: this.#lastState,
      restartCount: this.#restartCount,
      started: this.#started,
      ready: this.#ready,
      everStarted: this.#everStarted,
    };
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
      // terminate() may have been called while the process ran; a container that waited (image,
      // config) never ran: it is tried again, neither restarted nor backed off.
      if (this.#isTerminating() || (exit !== undefined && !this.#restarts(exit))) {
        return;
      }
      if (exit !== undefined) {
        await this.#backOff(exit);
        this.#restartCount += 1;
      }
    }
  }

  async #backOff(exit: TerminatedState): Promise<void> {
    const delay = this.#backoff.next(exit.startedAt.getTime(), exit.finishedAt.getTime());
    if (delay > 0) {
      const { container } = this.#options;
      this.#set({
        kind: 'waiting',
        reason: 'CrashLoopBackOff',
        message: `back-off ${String(Math.round(delay / 1000))}s restarting failed container=${container.name}`,
      });
      await this.#sleep(delay);
    }
  }

  #isTerminating(): boolean {
    return this.#terminating !== undefined;
  }

  #restarts(exit: TerminatedState): boolean {
    const policy = this.#options.restartPolicy;
    return policy === 'Always' || (policy === 'OnFailure' && exit.exitCode !== 0);
  }

  /** One start; its termination, or undefined when it waited (image, config) and should simply be tried again. */
  async #runOnce(): Promise<TerminatedState | undefined> {
    let running: ContainerProcess;
    try {
      const spec = await this.#options.plan(this.#restartCount).catch(asWaitUnlessStartError);
      running = await ContainerProcess.start(spec);
    } catch (error) {
      return this.#failedStart(error);
    }
    this.#process = running;
    // Deleted while it was being started: it still gets its grace period.
    if (this.#terminating !== undefined) {
      void running.stop(this.#terminating.graceMs);
    }
    this.#everStarted = true;
    this.#set({ kind: 'running', startedAt: running.startedAt, containerID: `process://${String(running.pid)}` });
    this.#startProbes(running.startedAt);
    const exit = await running.exited;
    this.#stopProbes();
    this.#started = false;
    this.#ready = false;
    const terminated = terminatedOf(running, exit);
    this.#options.log(
      `container ${this.#options.container.name} exited: code ${String(exit.exitCode)} (${terminated.reason})`,
    );
    this.#set({ kind: 'terminated', ...terminated });
    return terminated;
  }

  async #failedStart(error: unknown): Promise<TerminatedState | undefined> {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof ContainerWaitError) {
      await this.#wait(error.reason, message);
      return undefined;
    }
    const now = new Date();
    const terminated: TerminatedState = {
      exitCode: 128,
      reason: 'StartError',
      message,
      startedAt: now,
      finishedAt: now,
      containerID: '',
    };
    this.#options.log(`container ${this.#options.container.name} could not start: ${message}`);
    this.#set({ kind: 'terminated', ...terminated });
    return terminated;
  }

  /** Waits with `reason` before the next try; an image that cannot be pulled shows ImagePullBackOff in between, as the kubelet's does. */
  async #wait(reason: string, message: string): Promise<void> {
    this.#set({ kind: 'waiting', reason, message });
    await this.#sleep(WAIT_RETRY_MS);
    if (reason === 'ErrImagePull' && !this.#isTerminating()) {
      this.#set({ kind: 'waiting', reason: 'ImagePullBackOff', message: `Back-off pulling image: ${message}` });
      await this.#sleep(WAIT_RETRY_MS);
    }
  }

  #startProbes(startedAt: Date): void {
    const { container } = this.#options;
    if (container.startupProbe === undefined) {
      this.#onStarted(startedAt);
      return;
    }
    this.#addProbe(container.startupProbe, startedAt, (success) => {
      if (success) {
        this.#onStarted(startedAt);
      } else {
        this.#restartForProbe('startup');
      }
    });
  }

  /** Liveness and readiness probes run once the startup probe succeeded; their initial delays count from the container's start. */
  #onStarted(startedAt: Date): void {
    const { container } = this.#options;
    this.#started = true;
    if (container.livenessProbe !== undefined) {
      this.#addProbe(container.livenessProbe, startedAt, (success) => {
        if (!success) {
          this.#restartForProbe('liveness');
        }
      });
    }
    if (container.readinessProbe === undefined) {
      this.#ready = true;
    } else {
      this.#addProbe(container.readinessProbe, startedAt, (success) => {
        this.#ready = success;
        this.#options.onChange();
      });
    }
    this.#options.onChange();
  }

  #addProbe(probe: V1Probe, startedAt: Date, onResult: (success: boolean) => void): void {
    const worker = new ProbeWorker({ probe, target: this.#options.probeTarget, startedAt, onResult });
    this.#probes.push(worker);
    worker.start();
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

  /** The termination the container leaves becomes its lastState, as the kubelet reports the previous instance. */
  #set(state: ContainerState): void {
    if (this.#state.kind === 'terminated' && state !== this.#state) {
      this.#lastState = withoutKind(this.#state);
    }
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
