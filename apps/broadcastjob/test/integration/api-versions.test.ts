/**
 * A BroadcastJob written in v1beta1 (OpenKruise 1.9's stored version) is reconciled like a v1alpha1
 * one (issue 29): one pod per node, run to completion.
 */
import { describe, expect, it } from 'vitest';

import type { BroadcastJob } from '@kruise-ts/api';
import { defineResource } from '@kruise-ts/controller-runtime';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { jobBody, jobPods, testNodes, waitForJob, withController } from '../support/harness.ts';

const client = testClient(testKubeConfig());
const jobsV1beta1 = defineResource<BroadcastJob>({
  group: 'apps.kruise.io',
  version: 'v1beta1',
  plural: 'broadcastjobs',
  kind: 'BroadcastJob',
  namespaced: true,
});

describe('BroadcastJob written in v1beta1', () => {
  it('runs a pod on each node to completion', async () => {
    await withController('bcj-v1beta1', async (namespace) => {
      await using nodes = await testNodes(namespace, 2);
      await client.create(jobsV1beta1, { ...jobBody(namespace, 'beta'), apiVersion: 'apps.kruise.io/v1beta1' });
      const done = await waitForJob(
        client,
        { namespace, name: 'beta', description: 'the v1beta1 job completed' },
        (job) => job.status?.phase === 'completed',
      );
      expect(done.status).toMatchObject({ desired: 2, succeeded: 2, failed: 0 });
      expect((await jobPods(client, namespace, 'beta')).map((pod) => pod.spec?.nodeName).sort()).toEqual(
        [...nodes.names].sort(),
      );
    });
  });
});
