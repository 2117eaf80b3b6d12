import { describe, expect, it } from 'vitest';

import type { ControllerRevision } from '@kruise-ts/api';
import { isNotFound } from '@kruise-ts/controller-runtime';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { controllerRevisionResource } from '@kruise-ts/revision';

import { cloneSetResource } from '../../src/index.ts';
import {
  activePods,
  createCloneSet,
  RequestLog,
  settled,
  testClient,
  waitForStatus,
  webCloneSet,
  withController,
} from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

async function setImage(namespace: string, image: string): Promise<void> {
  await client.patch(
    cloneSetResource,
    { namespace, name: 'web' },
    { type: 'json', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }] },
  );
}

async function revisions(namespace: string): Promise<ControllerRevision[]> {
  return (await client.list(controllerRevisionResource, { namespace })).items;
}

describe('CloneSet revisions', () => {
  it('records a template change as a new update revision (paused: pods stay), and reuses the old revision on rollback', async () => {
    await withController('cloneset-revisions', async (namespace) => {
      await createCloneSet(client, namespace, webCloneSet(2, { updateStrategy: { paused: true } }));
      const first = await waitForStatus(client, { namespace, name: 'web', description: 'two pods' }, settled);
      const rev0 = first.status?.updateRevision ?? '';
      const podsBefore = await activePods(client, namespace, 'app=web');

      await setImage(namespace, 'nginx:1.27');
      const changed = await waitForStatus(
        client,
        { namespace, name: 'web', description: 'a new update revision' },
        (cs) => cs.status?.observedGeneration === cs.metadata.generation && cs.status?.updateRevision !== rev0,
      );
      const rev1 = changed.status?.updateRevision ?? '';
      expect(changed.status).toMatchObject({
        currentRevision: rev0,
        updatedReplicas: 0,
        expectedUpdatedReplicas: 2,
        replicas: 2,
      });
      expect((await activePods(client, namespace, 'app=web')).map((pod) => pod.metadata?.uid)).toEqual(
        podsBefore.map((pod) => pod.metadata?.uid),
      );

      // A new pod is created at the update revision (partition 0).
      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        { type: 'merge', body: { spec: { replicas: 3 } } },
      );
      const scaled = await waitForStatus(
        client,
        { namespace, name: 'web', description: 'three pods, one updated' },
        (cs) => cs.status?.replicas === 3 && cs.status.updatedReplicas === 1,
      );
      expect(scaled.status?.currentRevision).toBe(rev0);
      const newPod = (await activePods(client, namespace, 'app=web')).find(
        (pod) => !podsBefore.some((old) => old.metadata?.uid === pod.metadata?.uid),
      );
      expect(newPod?.metadata?.labels?.['controller-revision-hash']).toBe(rev1);
      expect(newPod?.spec?.containers[0]?.image).toBe('nginx:1.27');

      // Rolling the template back reuses the first revision (same name, higher revision number).
      await setImage(namespace, 'nginx:1.25');
      const back = await waitForStatus(
        client,
        { namespace, name: 'web', description: 'the first revision again' },
        (cs) => cs.status?.observedGeneration === cs.metadata.generation && cs.status?.updateRevision === rev0,
      );
      expect(back.status).toMatchObject({ updatedReplicas: 2, expectedUpdatedReplicas: 3 });
      const byName = new Map((await revisions(namespace)).map((r) => [r.metadata?.name, r.revision]));
      expect([...byName.keys()].sort()).toEqual([rev0, rev1].sort());
      expect(byName.get(rev0)).toBeGreaterThan(byName.get(rev1) ?? Number.POSITIVE_INFINITY);
    });
  });

  it('keeps at most revisionHistoryLimit old revisions besides the ones in use', async () => {
    await withController('cloneset-history', async (namespace) => {
      await createCloneSet(client, namespace, webCloneSet(0, { revisionHistoryLimit: 1 }));
      await waitForStatus(
        client,
        { namespace, name: 'web', description: 'observed' },
        (cs) => cs.status?.observedGeneration === cs.metadata.generation,
      );
      for (const tag of ['1.26', '1.27', '1.28', '1.29']) {
        await setImage(namespace, `nginx:${tag}`);
        await waitForStatus(
          client,
          { namespace, name: 'web', description: `revision for ${tag}` },
          (cs) => cs.status?.observedGeneration === cs.metadata.generation,
        );
      }
      const cs = await client.get(cloneSetResource, { namespace, name: 'web' });
      const names = await waitFor(
        async () => {
          const list = (await revisions(namespace)).map((r) => r.metadata?.name ?? '');
          return list.length <= 2 ? list : undefined;
        },
        { description: 'the history to be truncated' },
      );
      expect(names).toContain(cs.status?.updateRevision);
      expect(names).toContain(cs.status?.currentRevision);
    });
  });

  it('adopts the revisions an orphaning delete left behind, so the re-created CloneSet updates its old pods in place', async () => {
    const log = new RequestLog();
    await withController(
      'cloneset-revision-adopt',
      async (namespace) => {
        const spec = webCloneSet(2, { updateStrategy: { type: 'InPlaceIfPossible', paused: true } });
        await createCloneSet(client, namespace, spec);
        await waitForStatus(client, { namespace, name: 'web', description: 'two pods' }, settled);
        await setImage(namespace, 'nginx:1.27');
        await waitFor(async () => ((await revisions(namespace)).length === 2 ? true : undefined), {
          description: 'the second revision',
        });
        const pods = await activePods(client, namespace, 'app=web');

        await client.delete(cloneSetResource, { namespace, name: 'web' }, { propagationPolicy: 'Orphan' });
        await waitFor(
          async () =>
            (await revisions(namespace)).every((revision) => (revision.metadata?.ownerReferences ?? []).length === 0) ||
            undefined,
          {
            description: 'the garbage collector to orphan the revisions',
          },
        );
        await waitFor(
          async () =>
            client.get(cloneSetResource, { namespace, name: 'web' }).then(
              () => undefined,
              (error: unknown) => (isNotFound(error) ? true : undefined),
            ),
          {
            description: 'the old CloneSet to be gone',
          },
        );

        // Re-created with the new image and not paused: the pods are at the older revision.
        const recreated = await createCloneSet(client, namespace, {
          ...spec,
          spec: {
            ...spec.spec,
            updateStrategy: { type: 'InPlaceIfPossible' },
            template: { ...spec.spec.template, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } },
          },
        });
        await waitForStatus(
          client,
          { namespace, name: 'web', description: 'both pods updated' },
          (cs) => settled(cs) && cs.status?.updatedReplicas === 2,
        );
        // Both revisions the orphaning delete left, adopted (the new template is the second one's): a loop
        // over none would prove nothing.
        const adopted = await revisions(namespace);
        expect(adopted).toHaveLength(2);
        for (const revision of adopted) {
          expect(revision.metadata?.ownerReferences).toEqual([
            expect.objectContaining({ uid: recreated.metadata.uid, controller: true, kind: 'CloneSet' }),
          ]);
        }
        // The old revision was known, so the update was in place: same pods, new image.
        const after = await activePods(client, namespace, 'app=web');
        expect(after.map((pod) => pod.metadata?.uid).sort()).toEqual(pods.map((pod) => pod.metadata?.uid).sort());
        expect(after.map((pod) => pod.spec?.containers[0]?.image)).toEqual(['nginx:1.27', 'nginx:1.27']);
        // Once adopted, a reconcile no longer tries to create a revision an orphan held. (The very first
        // reconciles of the new CloneSet may still: its revision cache can lag behind the garbage
        // collector's orphaning, and AlreadyExists then reuses the existing revision.)
        const since = log.requests.length;
        const touched = await client.patch(
          cloneSetResource,
          { namespace, name: 'web' },
          { type: 'merge', body: { spec: { revisionHistoryLimit: 9 } } },
        );
        await waitForStatus(
          client,
          { namespace, name: 'web', description: 'the edit reconciled' },
          (cs) => cs.status?.observedGeneration === touched.metadata.generation,
        );
        expect(
          log.requests
            .slice(since)
            .filter((request) => request.verb === 'create' && /\/controllerrevisions$/.test(request.path)),
        ).toEqual([]);
      },
      { requestObservers: [log] },
    );
  });
});
