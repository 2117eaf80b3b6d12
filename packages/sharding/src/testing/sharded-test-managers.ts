import { startTestManager } from '@kruise-ts/controller-runtime/testing';
import type { TestManager, TestManagerOptions } from '@kruise-ts/controller-runtime/testing';

import { ManagerShards } from '../manager-shards.ts';

/**
 * Test managers that share the sharded controllers' work (docs/sharding.md): one per identity, on one
 * ring whose Leases live in the test's namespace, with short Lease timings (6 s, deadline 4 s).
 */
export function startShardedTestManagers(
  options: Omit<TestManagerOptions, 'sharding'> & { readonly ring: string; readonly identities: readonly string[] },
): TestManager[] {
  const timing = { leaseDurationMs: 6000, renewDeadlineMs: 4000, renewPeriodMs: 1000 };
  const { ring, identities, ...rest } = options;
  return identities.map((identity) =>
    startTestManager({
      ...rest,
      sharding: new ManagerShards({ ring, namespace: options.namespace, identity, timing }),
    }),
  );
}
