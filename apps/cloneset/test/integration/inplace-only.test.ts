import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { ApiError } from '@kruise-ts/controller-runtime';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { cloneSetResource } from '../../src/index.ts';
import {
  activePods,
  createCloneSet,
  installCloneSetCrd,
  rolledOut,
  settled,
  startController,
  testClient,
  waitForStatus,
} from '../support/harness.ts';
import { imageOf, uidOf } from '../support/pods.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

describe('CloneSet InPlaceOnly', () => {
  it('rejects a container rename at admission, reports other non-image changes by Event and condition, and never recreates a pod', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'inplace-only');
    const controller = startController({ kubeConfig, namespace: ns.name });
    try {
      await createCloneSet(client, ns.name, {
        metadata: { name: 'strict' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'strict' } },
          template: {
            metadata: { labels: { app: 'strict' } },
            spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
          },
          updateStrategy: { type: 'InPlaceOnly' },
        },
      });
      await waitForStatus(client, { namespace: ns.name, name: 'strict', description: 'two pods' }, settled);
      const uids = (await activePods(client, ns.name, 'app=strict')).map(uidOf).sort();

      // What CEL can see: the containers' names and order.
      const rename = await client
        .patch(
          cloneSetResource,
          { namespace: ns.name, name: 'strict' },
          { type: 'json', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/name', value: 'renamed' }] },
        )
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(rename).toBeInstanceOf(ApiError);
      expect((rename as ApiError).code).toBe(422);
      expect((rename as ApiError).message).toContain('InPlaceOnly');

      // What it cannot: an env change is accepted, and the controller says it cannot apply it.
      await client.patch(
        cloneSetResource,
        { namespace: ns.name, name: 'strict' },
        {
          type: 'json',
          body: [
            { op: 'add', path: '/spec/template/spec/containers/0/env', value: [{ name: 'MODE', value: 'strict' }] },
          ],
        },
      );
      const blocked = await waitForStatus(
        client,
        { namespace: ns.name, name: 'strict', description: 'the FailedUpdate condition' },
        (cs) =>
          cs.status?.conditions?.some((c) => c.type === 'FailedUpdate' && c.reason === 'InPlaceOnlyNotPossible') ===
          true,
      );
      expect(blocked.status?.conditions?.find((c) => c.type === 'FailedUpdate')?.message).toContain(
        'InPlaceOnly but can not update in-place',
      );
      const event = await waitFor(
        async () => {
          const events = await kubeConfig
            .makeApiClient(CoreV1Api)
            .listNamespacedEvent({ namespace: ns.name, fieldSelector: 'involvedObject.name=strict' });
          return events.items.find((e) => e.reason === 'FailedUpdatePodInPlace');
        },
        { description: 'the FailedUpdatePodInPlace event' },
      );
      expect(event.type).toBe('Warning');
      // That no pod is written for a blocked update is pinned down by src/sync/update.test.ts.
      expect((await activePods(client, ns.name, 'app=strict')).map(uidOf).sort()).toEqual(uids);

      // Back to an image-only change: it goes through in place and the condition clears.
      await client.patch(
        cloneSetResource,
        { namespace: ns.name, name: 'strict' },
        {
          type: 'json',
          body: [
            { op: 'remove', path: '/spec/template/spec/containers/0/env' },
            { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.27' },
          ],
        },
      );
      const done = await waitForStatus(
        client,
        { namespace: ns.name, name: 'strict', description: 'updated in place' },
        rolledOut,
      );
      expect((done.status?.conditions ?? []).some((c) => c.type === 'FailedUpdate')).toBe(false);
      const pods = await activePods(client, ns.name, 'app=strict');
      expect(pods.map(uidOf).sort()).toEqual(uids);
      expect(pods.map(imageOf)).toEqual(['nginx:1.27', 'nginx:1.27']);
    } finally {
      await controller.stop();
    }
  });
});
