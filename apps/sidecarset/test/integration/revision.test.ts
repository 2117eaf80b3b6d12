/**
 * The SidecarSet's ControllerRevisions on the real control plane (the controller's revision namespace
 * is the test namespace here): the latest revision is created with OpenKruise's name, labels,
 * annotations and owner, `status.latestRevision` follows the spec, a rollback to an earlier spec takes
 * its revision back with a new number, the custom version label moves onto the latest revision, and
 * the history is cut to `revisionHistoryLimit` without deleting a revision a pod records.
 */
import { describe, expect, it } from 'vitest';

import {
  SIDECARSET_CUSTOM_VERSION_LABEL,
  SIDECARSET_HASH_ANNOTATION,
  SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION,
  SIDECARSET_NAME_LABEL,
} from '@kruise-ts/api';
import type { ControllerRevision, Pod, SidecarSet } from '@kruise-ts/api';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { controllerRevisionResource, hashRevision } from '@kruise-ts/revision';

import {
  injectSidecars,
  sidecarSetHash,
  sidecarSetHashWithoutImage,
  sidecarSetResource,
  sidecarSetRevisionData,
} from '../../src/index.ts';
import { createPod, createSidecarSet, waitForSidecarSet, webPod, withController } from '../support/harness.ts';

const client = testClient(testKubeConfig());

async function revisionsOf(namespace: string, setName: string): Promise<ControllerRevision[]> {
  const list = await client.list(controllerRevisionResource, {
    namespace,
    labelSelector: `${SIDECARSET_NAME_LABEL}=${setName}`,
  });
  return list.items.sort((a, b) => a.revision - b.revision);
}

async function setImage(name: string, image: string, labels?: Record<string, string>): Promise<void> {
  const metadata = labels === undefined ? {} : { metadata: { labels } };
  await client.patch(
    sidecarSetResource,
    { name },
    { type: 'merge', body: { ...metadata, spec: { containers: [{ name: 'logger', image }] } } },
  );
}

/** Waits until the status names a revision of `image` and returns the set. */
async function latestAt(
  name: string,
  namespace: string,
  image: string,
): Promise<{ set: SidecarSet; revision: ControllerRevision }> {
  return waitFor(
    async () => {
      const set = await client.get(sidecarSetResource, { name });
      const revision = (await revisionsOf(namespace, name)).find(
        (candidate) => candidate.metadata?.name === set.status?.latestRevision,
      );
      const recorded = JSON.stringify(revision?.data ?? {});
      return set.status?.observedGeneration === set.metadata.generation &&
        recorded.includes(`"image":"${image}"`) &&
        revision !== undefined
        ? { set, revision }
        : undefined;
    },
    { description: `the latest revision at ${image}`, timeoutMs: 30_000 },
  );
}

describe('SidecarSet revisions', () => {
  it("creates OpenKruise's revision, follows image changes, and takes an earlier revision back on rollback", async () => {
    await withController('sidecarset-revision', async (namespace) => {
      await using created = await createSidecarSet(client, namespace, {
        containers: [{ name: 'logger', image: 'busybox:1.35' }],
      });
      const name = created.metadata.name ?? '';
      const first = await latestAt(name, namespace, 'busybox:1.35');
      const raw = sidecarSetRevisionData(first.set);
      expect(first.revision.metadata?.name).toBe(`${name}-${hashRevision(raw, 0)}`);
      expect(first.revision.revision).toBe(1);
      expect(first.revision.metadata?.labels).toMatchObject({
        [SIDECARSET_NAME_LABEL]: name,
        'controller.kubernetes.io/hash': hashRevision(raw, 0),
      });
      expect(first.revision.metadata?.annotations).toMatchObject({
        [SIDECARSET_HASH_ANNOTATION]: sidecarSetHash(first.set.spec),
        [SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION]: sidecarSetHashWithoutImage(first.set.spec),
      });
      expect(first.revision.metadata?.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'SidecarSet', name, uid: first.set.metadata.uid, controller: true }),
      ]);
      expect(first.set.status?.collisionCount ?? 0).toBe(0);

      await setImage(name, 'busybox:1.36');
      const second = await latestAt(name, namespace, 'busybox:1.36');
      expect(second.revision.revision).toBe(2);
      expect(second.revision.metadata?.name).not.toBe(first.revision.metadata?.name);

      await setImage(name, 'busybox:1.35');
      const back = await latestAt(name, namespace, 'busybox:1.35');
      expect(back.revision.metadata?.name).toBe(first.revision.metadata?.name);
      expect(back.revision.revision).toBe(3);
      expect((await revisionsOf(namespace, name)).map((revision) => revision.revision)).toEqual([2, 3]);
    });
  });

  it('labels the latest revision with the custom version and keeps the history within revisionHistoryLimit, except revisions pods record', async () => {
    await withController('sidecarset-history', async (namespace) => {
      await using created = await createSidecarSet(client, namespace, {
        revisionHistoryLimit: 2,
        updateStrategy: { type: 'NotUpdate' },
        containers: [{ name: 'logger', image: 'busybox:1.30' }],
      });
      const name = created.metadata.name ?? '';
      const initial = await latestAt(name, namespace, 'busybox:1.30');
      // A pod injected at the first revision: that revision must survive truncation.
      const pod: Pod = injectSidecars(webPod('old-sidecar'), [initial.set], new Date());
      await createPod(client, namespace, pod);
      await waitForSidecarSet(client, { name, description: 'the pod counted' }, (set) => set.status?.matchedPods === 1);
      for (const [index, image] of ['busybox:1.31', 'busybox:1.32', 'busybox:1.33'].entries()) {
        await setImage(name, image, index === 2 ? { [SIDECARSET_CUSTOM_VERSION_LABEL]: 'v33' } : undefined);
        await latestAt(name, namespace, image);
      }
      const revisions = await waitFor(
        async () => {
          const list = await revisionsOf(namespace, name);
          return list.length === 2 ? list : undefined;
        },
        { description: 'the history cut to 2', timeoutMs: 30_000 },
      );
      const names = revisions.map((revision) => revision.metadata?.name);
      expect(names).toContain(initial.revision.metadata?.name);
      const latest = revisions.at(-1);
      expect(JSON.stringify(latest?.data)).toContain('busybox:1.33');
      expect(latest?.metadata?.labels?.[SIDECARSET_CUSTOM_VERSION_LABEL]).toBe('v33');
    });
  });
});
