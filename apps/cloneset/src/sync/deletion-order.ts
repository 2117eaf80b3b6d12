import type { Node } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { chooseRanker, isWorkloadPodAvailable, scaleInOrder } from '@kruise-ts/workload';
import type { GroupComparator } from '@kruise-ts/workload';

import type { SyncContext, SyncState } from './sync-context.ts';

/**
 * OpenKruise's scale-in order for this CloneSet: pods ranked per candidate group by the template's
 * ranker (topology spread keys, else same node), availability judged by CloneSet's rules (lifecycle
 * Normal, InPlaceUpdateReady). Nodes are read from the cache only when the spread ranker needs them.
 */
export function podDeletionOrder(ctx: SyncContext, state: SyncState): GroupComparator {
  const minReadySeconds = state.cs.spec.minReadySeconds ?? 0;
  const now = ctx.clock.now();
  const ranker = chooseRanker(state.cs.spec.template);
  const nodes = new Map<string, DeepReadonly<Node>>();
  if (ranker.kind === 'spread') {
    for (const node of ctx.nodes.list()) {
      nodes.set(node.metadata?.name ?? '', node);
    }
  }
  return scaleInOrder({
    template: state.cs.spec.template,
    nodes,
    minReadySeconds,
    now,
    isAvailable: (pod) => isWorkloadPodAvailable(pod, { minReadySeconds, now }),
  });
}
