/**
 * The ring's Leases as the coordinator reads them: from one informer over the ring's label, so that
 * member and bucket events arrive in the API server's order. A narrow interface, so that a test can
 * hold the view still (a watch that stalls) while the API server moves on.
 */
import { leaseResource } from '@kruise-ts/controller-runtime';
import type { InformerFactory, LeaseLike } from '@kruise-ts/controller-runtime';

import { SHARD_RING_LABEL } from './bucket.ts';
import type { RingRef } from './shard-leases.ts';

export interface RingLeases {
  list(): readonly LeaseLike[];
  get(name: string): LeaseLike | undefined;
  /** Called on every change of a ring Lease. */
  onChange(handler: () => void): void;
  waitForSync(signal: AbortSignal): Promise<boolean>;
}

/** The ring's Leases from the process's shared informers. */
export function ringLeasesFrom(informers: InformerFactory, ref: RingRef): RingLeases {
  const informer = informers.informerFor({
    resource: leaseResource,
    namespace: ref.namespace,
    labelSelector: `${SHARD_RING_LABEL}=${ref.ring}`,
  });
  return {
    list: () => informer.lister().list(),
    get: (name) => informer.lister().get(ref.namespace, name),
    onChange: (handler) => {
      informer.addEventHandler({ onAdd: handler, onUpdate: handler, onDelete: handler });
    },
    waitForSync: (signal) => informer.waitForSync(signal),
  };
}
