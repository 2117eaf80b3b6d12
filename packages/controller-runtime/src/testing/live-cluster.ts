/**
 * Helpers of integration tests against a real API server, shared by every app's tests: a client for
 * the test's own reads and writes, a watch-driven observer of objects, and a log of the requests a
 * controller under test sends.
 */
import type { KubeConfig } from '@kubernetes/client-node';

import { InformerFactory } from '../cache/informer-factory.ts';
import { createClient } from '../client/client.ts';
import type { Client } from '../client/client.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { ResourceType } from '../client/resource-type.ts';
import { Transport } from '../client/transport.ts';
import type { RequestObserver, RequestRecord } from '../client/transport.ts';
import { createLogger } from '../log/logger.ts';
import type { DeepReadonly } from '../util/deep-readonly.ts';

/** A client for the test's own reads and writes. */
export function testClient(kubeConfig: KubeConfig): Client {
  return createClient(new Transport({ kubeConfig, qps: 200, burst: 200, userAgent: 'kruise-ts-test' }));
}

/** Follows every event of some objects through a watch (not polling), for invariants a rollout must keep. */
export interface ObjectObserver {
  /** Resolves once the initial list is in. */
  readonly synced: Promise<void>;
  stop(): void;
}

/**
 * Calls `onChange` with the namespace's objects matching `labelSelector` after every event, in the
 * order the API server sent them, so a test sees each intermediate state of a rollout.
 */
export function observeObjects<T extends KubeObject>(
  kubeConfig: KubeConfig,
  scope: { readonly resource: ResourceType<T>; readonly namespace: string; readonly labelSelector: string },
  onChange: (objects: readonly DeepReadonly<T>[]) => void,
): ObjectObserver {
  const { namespace, labelSelector } = scope;
  const client = createClient(new Transport({ kubeConfig, qps: 50, burst: 50, userAgent: 'kruise-ts-test-observer' }));
  const factory = new InformerFactory({ client, logger: createLogger({ level: 'silent' }), namespace });
  const informer = factory.informerFor({ resource: scope.resource, labelSelector });
  // The initial list arrives as one add per object: only complete states are reported, from the sync on.
  let live = false;
  const emit = (): void => {
    if (live) {
      onChange(informer.lister().list({ namespace }));
    }
  };
  informer.addEventHandler({ onAdd: emit, onUpdate: emit, onDelete: emit });
  const stop = new AbortController();
  factory.start(stop.signal);
  return {
    synced: factory.waitForCacheSync(stop.signal, 30_000).then(() => {
      live = true;
      emit();
    }),
    stop: () => {
      stop.abort();
    },
  };
}

/** One request the controller sent: when (performance.now() at sending), what, and the answer's code. */
export interface SentRequest {
  readonly sentAt: number;
  readonly verb: string;
  readonly path: string;
  readonly code: string;
}

/** Records every request the controller sends, with the time it was sent (its completion minus its duration). */
export class RequestLog implements RequestObserver {
  readonly requests: SentRequest[] = [];

  observeRequest(record: RequestRecord): void {
    // A dry run stores nothing: `create (dry run)`, so that counts of creations and writes leave it out.
    const verb = record.dryRun === true ? `${record.verb} (dry run)` : record.verb;
    this.requests.push({
      sentAt: performance.now() - record.durationSeconds * 1000,
      verb,
      path: record.path,
      code: record.code,
    });
  }

  /** The requests matching a verb and a path pattern. */
  matching(verb: string, path: RegExp): SentRequest[] {
    return this.requests.filter((request) => request.verb === verb && path.test(request.path));
  }
}
