/**
 * A kruise-daemon simulator for tests on kwok nodes (which run no containers): it watches the pods of
 * one namespace, keeps `apps.kruise.io/runtime-containers-meta` current for pods whose containers read
 * labels or annotations through env vars, and restarts such containers (a pods/status write with a new
 * container id, restartCount + 1 and lastState.terminated) when an in-place update changed what they
 * read, as kruise-daemon does through the container runtime. Both writes go to pods/status with the
 * pod's resourceVersion, as kruise-daemon reports its annotation; a Conflict is dropped because the
 * newer pod version triggers another pass.
 */
import type { KubeConfig } from '@kubernetes/client-node';

import type { Pod } from '@kruise-ts/api';
import {
  apiListWatcher,
  createClient,
  createLogger,
  Informer,
  isConflict,
  isNotFound,
  objectKey,
  Transport,
} from '@kruise-ts/controller-runtime';
import type { Client, DeepReadonly } from '@kruise-ts/controller-runtime';
import { podResource } from '@kruise-ts/workload';

import { RUNTIME_CONTAINERS_META_ANNOTATION } from '../internal/annotations.ts';
import { planContainerMeta } from './container-meta-plan.ts';
import { SerialKeyQueue } from './serial-key-queue.ts';

/** Options of {@link startContainerMetaReporter}. */
export interface ContainerMetaReporterOptions {
  readonly kubeConfig: KubeConfig;
  /** The namespace whose pods are simulated. */
  readonly namespace: string;
  /** Stops the reporter when aborted (as `stop()` does). */
  readonly signal?: AbortSignal | undefined;
}

/** A running reporter. */
export interface ContainerMetaReporter {
  /** Resolves once the pod cache is filled (events after that are never missed). */
  readonly synced: Promise<void>;
  /** Containers restarted so far. */
  readonly restarts: () => number;
  /** Stops watching and waits for the write in flight. */
  stop(): Promise<void>;
}

const RETRY_MS = 300;

async function sync(client: Client, pod: DeepReadonly<Pod>, now: number): Promise<number> {
  const action = planContainerMeta(pod, now);
  const key = { namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' };
  const metadata = { resourceVersion: pod.metadata?.resourceVersion };
  switch (action.kind) {
    case 'none':
      return 0;
    case 'restart':
      await client.patchStatus(podResource, key, {
        type: 'strategic',
        body: { metadata, status: { containerStatuses: action.containerStatuses } },
      });
      return action.containers.length;
    case 'report':
      await client.patchStatus(podResource, key, {
        type: 'strategic',
        body: { metadata: { ...metadata, annotations: { [RUNTIME_CONTAINERS_META_ANNOTATION]: action.annotation } } },
      });
      return 0;
  }
}

/**
 * Starts the simulator for `namespace`; see the file header. Returns at once; await `synced` before
 * relying on it, and `stop()` at the end of the test.
 */
export function startContainerMetaReporter(options: ContainerMetaReporterOptions): ContainerMetaReporter {
  const stopping = new AbortController();
  const signal = options.signal === undefined ? stopping.signal : AbortSignal.any([stopping.signal, options.signal]);
  const client = createClient(
    new Transport({
      kubeConfig: options.kubeConfig,
      qps: 50,
      burst: 100,
      userAgent: 'kruise-ts-container-meta-reporter',
    }),
  );
  const informer = new Informer<Pod>({
    listWatcher: apiListWatcher(client, { resource: podResource, namespace: options.namespace }),
    description: `pods in ${options.namespace} (container meta reporter)`,
    logger: createLogger({ level: 'silent' }),
  });
  let restarts = 0;
  const stopped = (): boolean => signal.aborted;
  const queue: SerialKeyQueue = new SerialKeyQueue(async (key) => {
    const pod = informer.lister().getByKey(key);
    if (pod === undefined || signal.aborted) {
      return;
    }
    try {
      restarts += await sync(client, pod, Date.now());
    } catch (error) {
      if (!isConflict(error) && !isNotFound(error) && !stopped()) {
        setTimeout(() => {
          queue.add(key);
        }, RETRY_MS).unref();
      }
    }
  }, signal);
  informer.addEventHandler({
    onAdd: (pod) => {
      queue.add(objectKey(pod));
    },
    onUpdate: (_old, pod) => {
      queue.add(objectKey(pod));
    },
  });
  const running = informer.run(signal);
  const synced = informer.waitForSync(signal).then(() => undefined);
  return {
    synced,
    restarts: () => restarts,
    stop: async () => {
      stopping.abort();
      await running;
      await queue.idle();
    },
  };
}
