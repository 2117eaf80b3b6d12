/**
 * The process kubelet: a Node of the local control plane whose pods run as real processes on this
 * machine (tools/local-cluster/README.md, "The process kubelet"). It watches the pods bound to its
 * node, runs each with a PodWorker, and keeps EndpointSlices for the Services that select them.
 */
import { readFile } from 'node:fs/promises';

import { CoreV1Api, DiscoveryV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { V1Pod, V1PodStatus, V1Service } from '@kubernetes/client-node';

import { errorText, isConflict, isNotFound } from './api-errors.ts';
import { ContainerWaitError } from './container-worker.ts';
import { KUBELET_CRASH_LOOP_BACKOFF } from './crash-loop-backoff.ts';
import type { CrashLoopBackoffOptions } from './crash-loop-backoff.ts';
import { syncEndpointSlices } from './endpoint-slice-sync.ts';
import type { EndpointPod } from './endpoint-slices.ts';
import { findImageMapping } from './image-mapping.ts';
import type { ImageMapping } from './image-mapping.ts';
import { ListWatch } from './list-watch.ts';
import { apiPodSources } from './pod-sources.ts';
import { containerLogFile, podKey, PodWorker } from './pod-worker.ts';
import type { PodWorkerContext } from './pod-worker.ts';
import { machineAddress, PROCESS_NODE_NAME, processNodePlacement, registerProcessNode } from './process-node.ts';
import type { ProcessNodePlacement } from './process-node.ts';

export interface ProcessKubeletOptions {
  /** An administrator's kubeconfig of the cluster (the local control plane's). */
  readonly kubeconfigPath: string;
  /** Where pods' volumes and containers' logs are kept. */
  readonly directory: string;
  /** The images it can run; others wait in ErrImagePull. */
  readonly images: readonly ImageMapping[];
  readonly nodeName?: string;
  readonly crashLoopBackoff?: CrashLoopBackoffOptions;
  readonly log?: (line: string) => void;
}

export interface ContainerLogReference {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  readonly previous?: boolean;
}

export interface HostPortReference {
  readonly namespace: string;
  readonly pod: string;
  readonly port: number | string;
}

export interface ProcessKubelet {
  readonly nodeName: string;
  /** The pods' IP: this machine's address. */
  readonly address: string;
  /** nodeSelector and tolerations that place a pod (or the chart's pods, as Helm values) on this node. */
  readonly placement: ProcessNodePlacement;
  /** The pid of a running container's process, to signal it from a test. */
  pid(namespace: string, pod: string, container: string): number | undefined;
  /** The host port a pod's container port (by number or name) is mapped to, to reach it at `address` from a test. */
  hostPort(reference: HostPortReference): number | undefined;
  /** What `kubectl logs` shows (`previous`: the run before the current one, as `kubectl logs --previous`). */
  containerLog(reference: ContainerLogReference): Promise<string>;
  /** Stops watching and kills every container (SIGKILL); pods stay bound, as after a kubelet's crash. */
  stop(): Promise<void>;
}

const SLICE_DEBOUNCE_MS = 50;
const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** SIGKILL to a container's process group; one already gone is fine. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // exited already
  }
}

class Kubelet implements ProcessKubelet {
  readonly nodeName: string;
  readonly address: string;
  readonly placement: ProcessNodePlacement;
  readonly #options: ProcessKubeletOptions;
  readonly #core: CoreV1Api;
  readonly #discovery: DiscoveryV1Api;
  readonly #kubeConfig: KubeConfig;
  readonly #workers = new Map<string, PodWorker>();
  readonly #services = new Map<string, V1Service>();
  readonly #prepared = new Map<string, Promise<void>>();
  readonly #watches: ListWatch<V1Pod | V1Service>[] = [];
  readonly #log: (line: string) => void;
  #sliceTimer: NodeJS.Timeout | undefined;
  #sliceSync: Promise<void> = Promise.resolve();
  #context: PodWorkerContext | undefined;
  #stopped = false;

  constructor(options: ProcessKubeletOptions) {
    this.#options = options;
    this.nodeName = options.nodeName ?? PROCESS_NODE_NAME;
    this.placement = processNodePlacement(this.nodeName);
    this.address = machineAddress();
    this.#kubeConfig = new KubeConfig();
    this.#kubeConfig.loadFromFile(options.kubeconfigPath);
    this.#core = this.#kubeConfig.makeApiClient(CoreV1Api);
    this.#discovery = this.#kubeConfig.makeApiClient(DiscoveryV1Api);
    this.#log = options.log ?? (() => undefined);
  }

  async start(): Promise<void> {
    const server = new URL(this.#kubeConfig.getCurrentCluster()?.server ?? 'https://127.0.0.1:6443');
    this.#context = {
      directory: this.#options.directory,
      address: this.address,
      apiServer: { host: server.hostname, port: server.port === '' ? '443' : server.port },
      sources: apiPodSources(this.#core),
      backoff: this.#options.crashLoopBackoff ?? KUBELET_CRASH_LOOP_BACKOFF,
      image: (image) => this.#image(image),
      writeStatus: (pod, status) => this.#writeStatus(pod, status),
      deletePod: (pod) => this.#deletePod(pod),
      onChange: () => {
        this.#slicesChanged();
      },
      log: this.#log,
    };
    await registerProcessNode(this.#core, this.nodeName, this.address);
    process.once('exit', () => {
      this.#killAll();
    });
    await this.#watchServices();
    await this.#watchPods();
    this.#log(`process kubelet: node ${this.nodeName}, pods at ${this.address}`);
  }

  pid(namespace: string, pod: string, container: string): number | undefined {
    return this.#workers.get(`${namespace}/${pod}`)?.pid(container);
  }

  hostPort(reference: HostPortReference): number | undefined {
    return this.#workers.get(`${reference.namespace}/${reference.pod}`)?.hostPort(reference.port);
  }

  async containerLog(reference: ContainerLogReference): Promise<string> {
    const { namespace, pod, container } = reference;
    const worker = this.#workers.get(`${namespace}/${pod}`);
    // The kubelet's own count, not the last status written: that may lag a restart.
    const restartCount = worker?.restartCount(container);
    if (worker === undefined || restartCount === undefined) {
      throw new Error(`no container ${container} of pod ${namespace}/${pod} on ${this.nodeName}`);
    }
    const run = restartCount - (reference.previous === true ? 1 : 0);
    return readFile(
      containerLogFile({ directory: this.#options.directory, pod: worker.pod, container, restartCount: run }),
      'utf8',
    );
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const watch of this.#watches) {
      watch.stop();
    }
    clearTimeout(this.#sliceTimer);
    await Promise.all([...this.#workers.values()].map((worker) => worker.terminate(0, false)));
    await this.#sliceSync;
  }

  #killAll(): void {
    for (const worker of this.#workers.values()) {
      for (const container of worker.pod.spec?.containers ?? []) {
        const pid = worker.pid(container.name);
        if (pid !== undefined) {
          killGroup(pid);
        }
      }
    }
  }

  async #watchServices(): Promise<void> {
    const watch = new ListWatch<V1Service>(this.#kubeConfig, {
      path: '/api/v1/services',
      list: () => this.#core.listServiceForAllNamespaces(),
      onList: (items) => {
        this.#services.clear();
        for (const service of items) {
          this.#services.set(`${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`, service);
        }
        this.#slicesChanged();
      },
      onEvent: (type, service) => {
        const key = `${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`;
        if (type === 'DELETED') {
          this.#services.delete(key);
        } else {
          this.#services.set(key, service);
        }
        this.#slicesChanged();
      },
      log: this.#log,
    });
    this.#watches.push(watch as ListWatch<V1Pod | V1Service>);
    await watch.start();
  }

  async #watchPods(): Promise<void> {
    const fieldSelector = `spec.nodeName=${this.nodeName}`;
    const watch = new ListWatch<V1Pod>(this.#kubeConfig, {
      path: '/api/v1/pods',
      fieldSelector,
      list: () => this.#core.listPodForAllNamespaces({ fieldSelector }),
      onList: (items) => {
        const listed = new Set(items.map(podKey));
        for (const [key, worker] of this.#workers) {
          if (!listed.has(key)) {
            this.#podGone(key, worker);
          }
        }
        for (const pod of items) {
          this.#podSeen(pod);
        }
      },
      onEvent: (type, pod) => {
        const worker = this.#workers.get(podKey(pod));
        if (type === 'DELETED') {
          if (worker !== undefined && worker.pod.metadata?.uid === pod.metadata?.uid) {
            this.#podGone(podKey(pod), worker);
          }
          return;
        }
        this.#podSeen(pod);
      },
      log: this.#log,
    });
    this.#watches.push(watch as ListWatch<V1Pod | V1Service>);
    await watch.start();
  }

  #podSeen(pod: V1Pod): void {
    const key = podKey(pod);
    const existing = this.#workers.get(key);
    if (existing !== undefined && existing.pod.metadata?.uid === pod.metadata?.uid) {
      existing.update(pod);
      return;
    }
    if (existing !== undefined) {
      this.#podGone(key, existing);
    }
    this.#startWorker(pod);
  }

  #startWorker(pod: V1Pod): void {
    const key = podKey(pod);
    if (this.#stopped || this.#context === undefined || ['Succeeded', 'Failed'].includes(pod.status?.phase ?? '')) {
      return;
    }
    const worker = new PodWorker(pod, this.#context);
    this.#workers.set(key, worker);
    this.#log(`pod ${key}: starting`);
    worker
      .start()
      .then(() => {
        worker.update(pod);
      })
      .catch((error: unknown) => {
        this.#log(`pod ${key}: ${errorText(error)}`);
      });
  }

  /** Deleted without a grace period (or replaced by a pod of the same name): kill it now. */
  #podGone(key: string, worker: PodWorker): void {
    if (this.#workers.get(key) === worker) {
      this.#workers.delete(key);
    }
    worker.terminate(0, false).then(
      () => {
        this.#slicesChanged();
      },
      (error: unknown) => {
        this.#log(`pod ${key}: ${errorText(error)}`);
      },
    );
  }

  async #image(image: string): Promise<ImageMapping> {
    const mapping = findImageMapping(image, this.#options.images);
    if (mapping === undefined) {
      const known = this.#options.images.map((entry) => entry.repository).join(', ') || 'none';
      throw new ContainerWaitError(
        'ErrImagePull',
        `image ${JSON.stringify(image)} is not mapped to a build on this machine by the process kubelet (mapped repositories: ${known})`,
      );
    }
    let prepared = this.#prepared.get(mapping.repository);
    if (prepared === undefined) {
      prepared = mapping.prepare?.() ?? Promise.resolve();
      this.#prepared.set(mapping.repository, prepared);
      prepared.catch(() => this.#prepared.delete(mapping.repository));
    }
    await prepared.catch((error: unknown) => {
      throw new ContainerWaitError(
        'ErrImagePull',
        `preparing image ${JSON.stringify(image)} failed: ${errorText(error)}`,
      );
    });
    return mapping;
  }

  async #writeStatus(pod: V1Pod, status: V1PodStatus): Promise<void> {
    const { namespace = '', name = '' } = pod.metadata ?? {};
    try {
      await this.#core.patchNamespacedPodStatus(
        { namespace, name, body: { metadata: { uid: pod.metadata?.uid }, status } },
        MERGE_PATCH,
      );
    } catch (error) {
      if (!isNotFound(error)) {
        throw error;
      }
    }
  }

  async #deletePod(pod: V1Pod): Promise<void> {
    const { namespace = '', name = '', uid } = pod.metadata ?? {};
    const preconditions = uid === undefined ? {} : { preconditions: { uid } };
    try {
      await this.#core.deleteNamespacedPod({
        namespace,
        name,
        gracePeriodSeconds: 0,
        body: { gracePeriodSeconds: 0, ...preconditions },
      });
    } catch (error) {
      // Gone already, or a new pod of the same name (the uid precondition): nothing of ours to delete.
      if (!isNotFound(error) && !isConflict(error)) {
        throw error;
      }
    }
  }

  #slicesChanged(): void {
    if (this.#stopped) {
      return;
    }
    clearTimeout(this.#sliceTimer);
    this.#sliceTimer = setTimeout(() => {
      this.#sliceSync = this.#sliceSync.then(() => this.#syncSlices());
    }, SLICE_DEBOUNCE_MS);
  }

  async #syncSlices(): Promise<void> {
    const pods: EndpointPod[] = [...this.#workers.values()].map((worker) => ({
      namespace: worker.pod.metadata?.namespace ?? '',
      name: worker.pod.metadata?.name ?? '',
      uid: worker.pod.metadata?.uid ?? '',
      labels: worker.pod.metadata?.labels ?? {},
      ready: worker.ready,
      terminating: worker.terminating,
      address: this.address,
      nodeName: this.nodeName,
      hostPort: (port) => worker.hostPort(port),
    }));
    try {
      await syncEndpointSlices({
        discovery: this.#discovery,
        nodeName: this.nodeName,
        services: [...this.#services.values()],
        pods,
      });
    } catch (error) {
      this.#log(`EndpointSlices: ${errorText(error)}; trying again`);
      this.#sliceTimer = setTimeout(() => {
        this.#slicesChanged();
      }, 1000);
    }
  }
}

/** Registers the node and starts running the pods bound to it; resolves once it watches them. */
export async function startProcessKubelet(options: ProcessKubeletOptions): Promise<ProcessKubelet> {
  const kubelet = new Kubelet(options);
  await kubelet.start();
  return kubelet;
}
