/**
 * One pod bound to the process kubelet's node: its volumes written, a host port for each container
 * port, a ContainerWorker per container, its status written whenever something the kubelet reports
 * changes, and its graceful deletion (SIGTERM, the grace period, SIGKILL, then the final delete).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import type { V1Container, V1Pod, V1PodStatus } from '@kubernetes/client-node';

import { errorText } from './api-errors.ts';
import { commandLine, imageContentMounts, shimEnvironment } from './container-plan.ts';
import type { ContainerProcessSpec } from './container-process.ts';
import type { ContainerView } from './container-state.ts';
import { ContainerWaitError, ContainerWorker } from './container-worker.ts';
import type { CrashLoopBackoffOptions } from './crash-loop-backoff.ts';
import { holdHostPort, isPortFree, releaseHostPort } from './host-ports.ts';
import type { ImageMapping } from './image-mapping.ts';
import { ContainerConfigError, containerEnvironment } from './pod-env.ts';
import type { ApiServerAddress } from './pod-env.ts';
import type { PodSources } from './pod-sources.ts';
import { podStatus } from './pod-status.ts';
import { containerMounts, VolumeError, writePodVolumes } from './pod-volumes.ts';
import type { WrittenVolumes } from './pod-volumes.ts';
import { parseQuantity } from './quantity.ts';

export interface PodWorkerContext {
  readonly directory: string;
  readonly address: string;
  readonly apiServer: ApiServerAddress;
  readonly sources: PodSources;
  readonly backoff: CrashLoopBackoffOptions;
  /** The mapping of an image, prepared (built) once; throws ContainerWaitError('ErrImagePull', ...) for an unmapped one. */
  readonly image: (image: string) => Promise<ImageMapping>;
  readonly writeStatus: (pod: V1Pod, status: V1PodStatus) => Promise<void>;
  readonly deletePod: (pod: V1Pod) => Promise<void>;
  /** Readiness or ports changed: the EndpointSlices follow. */
  readonly onChange: () => void;
  readonly log: (line: string) => void;
}

const TOKEN_REFRESH_FRACTION = 0.8;

/** About two minutes of a restarting API server. */
const FINAL_DELETE_ATTEMPTS = 120;
const FINAL_DELETE_RETRY_MS = 1000;

export function podKey(pod: V1Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

export interface LogLocation {
  /** The kubelet's directory. */
  readonly directory: string;
  readonly pod: V1Pod;
  readonly container: string;
  /** Which run: the container's restartCount when it started. */
  readonly restartCount: number;
}

/** Where a container's log of one run is: as /var/log/pods lays them out. */
export function containerLogFile(location: LogLocation): string {
  const { namespace = '', name = '', uid = '' } = location.pod.metadata ?? {};
  return path.join(
    location.directory,
    'logs',
    `${namespace}_${name}_${uid}`,
    location.container,
    `${String(location.restartCount)}.log`,
  );
}

export class PodWorker {
  readonly #context: PodWorkerContext;
  #pod: V1Pod;
  readonly #containers = new Map<string, ContainerWorker>();
  /** container port -> host port, for every container of the pod */
  readonly hostPorts = new Map<number, number>();
  readonly #namedPorts = new Map<string, number>();
  readonly #startTime = new Date();
  #volumes: WrittenVolumes | undefined;
  #volumesPromise: Promise<WrittenVolumes> | undefined;
  #tokenTimer: NodeJS.Timeout | undefined;
  #terminating: Promise<void> | undefined;
  #statusDirty = false;
  #statusWrite: Promise<void> | undefined;

  constructor(pod: V1Pod, context: PodWorkerContext) {
    this.#pod = pod;
    this.#context = context;
  }

  get pod(): V1Pod {
    return this.#pod;
  }

  get terminating(): boolean {
    return this.#terminating !== undefined || this.#pod.metadata?.deletionTimestamp !== undefined;
  }

  /** Ready as the pod's Ready condition would say (a terminating pod's containers stay ready until they stop). */
  get ready(): boolean {
    return this.#views().every((view) => view.ready);
  }

  pid(container: string): number | undefined {
    return this.#containers.get(container)?.pid;
  }

  restartCount(container: string): number | undefined {
    return this.#containers.get(container)?.view().restartCount;
  }

  /** The host port of a container port given by number or name. */
  hostPort(port: number | string): number | undefined {
    const containerPort =
      typeof port === 'number'
        ? port
        : (this.#namedPorts.get(port) ?? (/^\d+$/u.test(port) ? Number(port) : undefined));
    return containerPort === undefined ? undefined : (this.hostPorts.get(containerPort) ?? containerPort);
  }

  async start(): Promise<void> {
    const containers = this.#pod.spec?.containers ?? [];
    await this.#allocateHostPorts(containers);
    for (const container of containers) {
      this.#containers.set(container.name, this.#containerWorker(container));
    }
    this.#changed();
    for (const worker of this.#containers.values()) {
      worker.start();
    }
  }

  async #allocateHostPorts(containers: readonly V1Container[]): Promise<void> {
    for (const port of containers.flatMap((container) => container.ports ?? [])) {
      this.hostPorts.set(port.containerPort, await holdHostPort());
      if (port.name !== undefined) {
        this.#namedPorts.set(port.name, port.containerPort);
      }
    }
  }

  #containerWorker(container: V1Container): ContainerWorker {
    return new ContainerWorker({
      container,
      restartPolicy: this.#pod.spec?.restartPolicy ?? 'Always',
      backoff: this.#context.backoff,
      probeTarget: { address: this.#context.address, hostPort: (port) => this.hostPort(port) },
      graceMs: (this.#pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000,
      plan: (restartCount) => this.#plan(container.name, restartCount),
      onChange: () => {
        this.#changed();
      },
      log: (line) => {
        this.#context.log(`pod ${podKey(this.#pod)}: ${line}`);
      },
    });
  }

  /** The latest object from the watch; a deletion timestamp starts the graceful termination. */
  update(pod: V1Pod): void {
    this.#pod = pod;
    if (pod.metadata?.deletionTimestamp !== undefined) {
      const graceMs = (pod.metadata.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
      this.terminate(graceMs, true).catch((error: unknown) => {
        this.#context.log(`pod ${podKey(pod)}: termination failed: ${String(error)}`);
      });
    }
  }

  /** Stops every container (SIGTERM, SIGKILL after `graceMs`); `finish`: write the final status and delete the pod. */
  terminate(graceMs: number, finish: boolean): Promise<void> {
    this.#terminating ??= this.#terminate(graceMs, finish);
    return this.#terminating;
  }

  async #terminate(graceMs: number, finish: boolean): Promise<void> {
    clearTimeout(this.#tokenTimer);
    this.#context.onChange();
    await Promise.all([...this.#containers.values()].map((worker) => worker.terminate(graceMs)));
    for (const port of this.hostPorts.values()) {
      releaseHostPort(port);
    }
    if (!finish) {
      return;
    }
    await this.#requestStatus();
    await this.#deleteUntilDone();
  }

  /**
   * The final delete, tried again while the API server cannot be reached (it may be restarting), as
   * the kubelet does: the pod would otherwise stay Terminating for ever.
   */
  async #deleteUntilDone(): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.#context.deletePod(this.#pod);
        this.#context.log(`pod ${podKey(this.#pod)}: terminated and deleted`);
        return;
      } catch (error) {
        if (attempt >= FINAL_DELETE_ATTEMPTS) {
          throw error;
        }
        this.#context.log(`pod ${podKey(this.#pod)}: final delete failed, trying again: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, FINAL_DELETE_RETRY_MS));
      }
    }
  }

  #views(): ContainerView[] {
    return [...this.#containers.values()].map((worker) => worker.view());
  }

  #volumesOnce(): Promise<WrittenVolumes> {
    this.#volumesPromise ??= this.#writeVolumes().catch((error: unknown) => {
      this.#volumesPromise = undefined;
      throw error;
    });
    return this.#volumesPromise;
  }

  async #writeVolumes(): Promise<WrittenVolumes> {
    const written = await writePodVolumes(this.#pod, this.#podDirectory(), this.#context.sources);
    this.#volumes = written;
    this.#scheduleTokenRefresh(written.tokenExpiresAt);
    return written;
  }

  #scheduleTokenRefresh(expiresAt: Date | undefined): void {
    clearTimeout(this.#tokenTimer);
    if (expiresAt === undefined || this.terminating) {
      return;
    }
    const lifetimeMs = expiresAt.getTime() - Date.now();
    this.#tokenTimer = setTimeout(
      () => {
        this.#writeVolumes().catch((error: unknown) => {
          this.#context.log(`pod ${podKey(this.#pod)}: token refresh failed: ${errorText(error)}`);
        });
      },
      Math.max(1000, lifetimeMs * TOKEN_REFRESH_FRACTION),
    );
    this.#tokenTimer.unref();
  }

  #podDirectory(): string {
    return path.join(this.#context.directory, 'pods', this.#pod.metadata?.uid ?? 'unknown');
  }

  async #plan(name: string, restartCount: number): Promise<ContainerProcessSpec> {
    const container = this.#pod.spec?.containers.find((entry) => entry.name === name);
    if (container === undefined) {
      throw new ContainerWaitError('CreateContainerConfigError', `no container ${name}`);
    }
    const image = await this.#context.image(container.image ?? '');
    if (restartCount > 0) {
      await this.#rehomeTakenPorts(container);
    }
    const volumes = await this.#volumesOnce().catch((error: unknown) => {
      throw error instanceof VolumeError
        ? new ContainerWaitError('ContainerCreating', `MountVolume.SetUp failed: ${error.message}`)
        : error;
    });
    const env = await containerEnvironment(
      { pod: this.#pod, container, sources: this.#context.sources, address: this.#context.address },
      image.env,
      this.#context.apiServer,
    ).catch((error: unknown) => {
      throw error instanceof ContainerConfigError
        ? new ContainerWaitError('CreateContainerConfigError', error.message)
        : error;
    });
    const line = commandLine(container, image, env);
    const logFile = containerLogFile({
      directory: this.#context.directory,
      pod: this.#pod,
      container: name,
      restartCount,
    });
    await mkdir(path.dirname(logFile), { recursive: true });
    const limit = container.resources?.limits?.['memory'];
    return {
      ...line,
      cwd: image.workingDir,
      env: {
        ...env,
        ...shimEnvironment(this.hostPorts, [
          ...containerMounts(container, volumes.directories),
          ...imageContentMounts(image),
        ]),
      },
      logFile,
      memoryLimit: limit === undefined ? undefined : parseQuantity(limit),
    };
  }

  /**
   * A host port another process took while the container was down would crash every restart on it:
   * the container gets a new one, and the EndpointSlices and probes follow (they look it up).
   */
  async #rehomeTakenPorts(container: V1Container): Promise<void> {
    for (const { containerPort } of container.ports ?? []) {
      const old = this.hostPorts.get(containerPort);
      if (old !== undefined && !(await isPortFree(old))) {
        const port = await holdHostPort();
        this.hostPorts.set(containerPort, port);
        releaseHostPort(old);
        this.#context.log(
          `pod ${podKey(this.#pod)}: host port ${String(old)} of container port ${String(containerPort)} is taken; now ${String(port)}`,
        );
        this.#changed();
      }
    }
  }

  #changed(): void {
    this.#context.onChange();
    void this.#requestStatus();
  }

  /** Resolves once a status at least as new as now was written. */
  #requestStatus(): Promise<void> {
    this.#statusDirty = true;
    // One writer at a time: a write in flight picks up the dirty flag when it loops.
    if (this.#statusWrite === undefined) {
      this.#statusWrite = this.#flushStatus().finally(() => {
        this.#statusWrite = undefined;
      });
    }
    return this.#statusWrite;
  }

  async #flushStatus(): Promise<void> {
    while (this.#statusDirty) {
      this.#statusDirty = false;
      const status = podStatus({
        pod: this.#pod,
        containers: this.#views(),
        address: this.#context.address,
        startTime: this.#startTime,
        volumesReady: this.#volumes !== undefined,
        now: new Date(),
      });
      await this.#context.writeStatus(this.#pod, status).catch((error: unknown) => {
        this.#context.log(`pod ${podKey(this.#pod)}: status write failed: ${errorText(error)}`);
      });
    }
  }
}
