/** Update behaviour behind feature gates: CloneSetPartitionRollback and RecreatePodWhenChangeVCTInCloneSetGate. */

import { describe, expect, it } from 'vitest';

import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { cloneSetResource } from '../../src/index.ts';
import {
  activeClaims,
  activePods,
  createCloneSet,
  seedExample,
  rolledOut,
  settled,
  testClient,
  waitForStatus,
  webCloneSet,
  withController,
} from '../support/harness.ts';
import { imageOf, revisionOf, uidOf } from '../support/pods.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

/** The harness's withController with feature gates first, as these tests read best. */
async function withGates(
  prefix: string,
  featureGates: string,
  run: (namespace: string) => Promise<void>,
): Promise<void> {
  await withController(prefix, run, { featureGates });
}

async function partitionedRollout(namespace: string): Promise<{ oldRevision: string; newRevision: string }> {
  await createCloneSet(
    client,
    namespace,
    webCloneSet(4, { updateStrategy: { type: 'InPlaceIfPossible', partition: 2, maxUnavailable: 1 } }),
  );
  const first = await waitForStatus(client, { namespace, name: 'web', description: 'four pods' }, settled);
  await client.patch(
    cloneSetResource,
    { namespace, name: 'web' },
    { type: 'json', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.27' }] },
  );
  const half = await waitForStatus(
    client,
    { namespace, name: 'web', description: 'two updated' },
    (cs) =>
      cs.status !== undefined &&
      cs.status.observedGeneration === cs.metadata.generation &&
      cs.status.updatedReplicas === 2 &&
      cs.status.readyReplicas === 4,
  );
  return { oldRevision: first.status?.updateRevision ?? '', newRevision: half.status?.updateRevision ?? '' };
}

describe('CloneSet update feature gates', () => {
  it('CloneSetPartitionRollback: raising the partition moves an updated pod back to the current revision, in place', async () => {
    await withGates('gate-rollback', 'CloneSetPartitionRollback=true', async (namespace) => {
      const { oldRevision } = await partitionedRollout(namespace);
      const uids = (await activePods(client, namespace, 'app=web')).map(uidOf).sort();
      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        { type: 'merge', body: { spec: { updateStrategy: { partition: 3 } } } },
      );
      const cs = await waitForStatus(
        client,
        { namespace, name: 'web', description: 'one updated' },
        (c) =>
          c.status !== undefined &&
          c.status.observedGeneration === c.metadata.generation &&
          c.status.updatedReplicas === 1 &&
          c.status.readyReplicas === 4,
      );
      expect(cs.status?.currentRevision).toBe(oldRevision);
      const pods = await activePods(client, namespace, 'app=web');
      expect(pods.map(uidOf).sort()).toEqual(uids);
      expect(pods.filter((pod) => revisionOf(pod) === oldRevision).map(imageOf)).toEqual([
        'nginx:1.25',
        'nginx:1.25',
        'nginx:1.25',
      ]);
    });
  });

  it('without CloneSetPartitionRollback, raising the partition leaves updated pods alone', async () => {
    await withGates('gate-no-rollback', '', async (namespace) => {
      await partitionedRollout(namespace);
      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        { type: 'merge', body: { spec: { updateStrategy: { partition: 3 } } } },
      );
      // That no later reconcile moves a pod back is pinned down by src/sync/update.test.ts (partition).
      const cs = await waitForStatus(
        client,
        { namespace, name: 'web', description: 'the partition observed' },
        (c) => c.status?.observedGeneration === c.metadata.generation && c.status?.expectedUpdatedReplicas === 1,
      );
      expect(cs.status).toMatchObject({ updatedReplicas: 2, expectedUpdatedReplicas: 1 });
    });
  });

  it('RecreatePodWhenChangeVCTInCloneSetGate: a volumeClaimTemplates change recreates pods (and PVCs) even with InPlaceIfPossible', async () => {
    await withGates('gate-vct', 'RecreatePodWhenChangeVCTInCloneSetGate=true', async (namespace) => {
      const example = await seedExample('003-L053.yaml');
      await createCloneSet(client, namespace, {
        ...example,
        spec: { ...example.spec, replicas: 2, updateStrategy: { type: 'InPlaceIfPossible' } },
      });
      await waitForStatus(client, { namespace, name: 'sample-data', description: 'two pods' }, settled);
      const uids = (await activePods(client, namespace, 'app=sample')).map(uidOf);
      await client.patch(
        cloneSetResource,
        { namespace, name: 'sample-data' },
        {
          type: 'json',
          body: [
            { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:mainline' },
            { op: 'replace', path: '/spec/volumeClaimTemplates/0/spec/resources/requests/storage', value: '30Gi' },
          ],
        },
      );
      await waitForStatus(client, { namespace, name: 'sample-data', description: 'all recreated' }, rolledOut);
      const pods = await activePods(client, namespace, 'app=sample');
      expect(pods.map(uidOf).filter((uid) => uids.includes(uid))).toEqual([]);
      const claims = await waitFor(
        async () => {
          const list = await activeClaims(client, namespace);
          return list.length === 2 ? list : undefined;
        },
        { description: 'two PVCs' },
      );
      expect(claims.map((pvc) => pvc.spec?.resources?.requests?.['storage'])).toEqual(['30Gi', '30Gi']);
    });
  });
});
