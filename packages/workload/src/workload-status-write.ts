/**
 * The one write of a workload's own status in a reconcile, through a client that records the written
 * version (the next reconcile waits until the cache shows it). A workload deleted since the cache saw
 * it is not a failure: its delete event ends the work, so the write ends quietly.
 */
import { isNotFound, resourceClient } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, ReconcileContext } from '@kruise-ts/controller-runtime';

import { expectingOwnWrites } from './own-writes.ts';
import type { WorkloadClients, WorkloadObject } from './reconcile-steps.ts';
import { updateStatus } from './status-patch.ts';

/** Writes `status` when it differs from the cached one; false when the workload was deleted meanwhile. */
export async function writeWorkloadStatus<W extends WorkloadObject>(
  clients: WorkloadClients<W>,
  context: Pick<ReconcileContext, 'signal' | 'logger'>,
  input: { readonly workload: DeepReadonly<W>; readonly status: object },
): Promise<boolean> {
  const client = resourceClient(clients.api, clients.resource, context.signal);
  const writer = expectingOwnWrites(client, clients.resourceVersionExpectations);
  try {
    await updateStatus<object>(writer, input.workload, input.status);
    return true;
  } catch (error) {
    if (isNotFound(error)) {
      context.logger.debug('Deleted while its status was written');
      return false;
    }
    throw error;
  }
}
