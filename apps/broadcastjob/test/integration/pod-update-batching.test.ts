/**
 * `--broadcastjob-pod-update-batch-period`: the changes of a job's pods within the period cost one
 * reconcile and one status write, as kube-controller-manager's Job controller batches them. The same
 * job on the same number of nodes, with the period and without it, counting the job's status writes;
 * the batched job still ends with every count right and its Complete condition.
 */
import { describe, expect, it } from 'vitest';

import { RequestLog, testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { createJob, jobBody, testNodes, waitForJob, withController } from '../support/harness.ts';

const client = testClient(testKubeConfig());
const NODES = 8;
const STATUS_WRITE = /\/broadcastjobs\/[^/]+\/status$/;

const completed = (job: { status?: { phase?: string | undefined } | undefined }): boolean =>
  job.status?.phase === 'completed';

/** Runs one job on `NODES` nodes of its own and returns how many status writes its controller sent. */
async function statusWrites(prefix: string, podUpdateBatchPeriodMs: number): Promise<number> {
  const log = new RequestLog();
  return withController(
    prefix,
    async (namespace) => {
      await using nodes = await testNodes(namespace, NODES);
      expect(nodes.names).toHaveLength(NODES);
      await createJob(client, jobBody(namespace, 'batch'));
      const done = await waitForJob(client, { namespace, name: 'batch', description: 'the job completed' }, completed);
      expect(done.status).toMatchObject({ desired: NODES, succeeded: NODES, failed: 0, active: 0 });
      expect(done.status?.conditions?.find((condition) => condition.type === 'Complete')?.status).toBe('True');
      return ['patch', 'update'].flatMap((verb) => log.matching(verb, STATUS_WRITE)).length;
    },
    { requestObservers: [log], podUpdateBatchPeriodMs },
  );
}

describe('BroadcastJob pod update batching', () => {
  it('writes the status of a job whose pods change together fewer times with the batch period than without', async () => {
    const unbatched = await statusWrites('bcj-unbatched', 0);
    const batched = await statusWrites('bcj-batched', 3_000);
    // Without the period every pod's start and end may be a write of its own; with it, the pods'
    // changes within 3 s share one: the first write (desired, active), then few more.
    expect(batched).toBeLessThan(unbatched);
    expect(batched).toBeLessThanOrEqual(4);
  });
});
