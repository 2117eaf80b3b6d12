/**
 * A SidecarSet written in v1beta1 (OpenKruise 1.9's documentation: `namespaceSelector` and
 * `customVersion`) is reconciled like a v1alpha1 one (issue 29): a controller restricted to the test
 * namespace takes it (the selector names that namespace), reports its pod created without the sidecars
 * (this test runs no pod webhook), and labels its revision with the custom version, which it reads
 * through the conversion webhook as v1alpha1's label.
 */
import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { SIDECARSET_CUSTOM_VERSION_LABEL, SIDECARSET_NAME_LABEL } from '@kruise-ts/api';
import type { SidecarSet } from '@kruise-ts/api';
import { defineResource } from '@kruise-ts/controller-runtime';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { controllerRevisionResource } from '@kruise-ts/revision';

import { MISSED_INJECTION } from '../../src/index.ts';
import { createPod, waitForSidecarSet, webPod, withController } from '../support/harness.ts';

const client = testClient(testKubeConfig());
const sidecarSetsV1beta1 = defineResource<SidecarSet>({
  group: 'apps.kruise.io',
  version: 'v1beta1',
  plural: 'sidecarsets',
  kind: 'SidecarSet',
  namespaced: false,
});

describe('SidecarSet written in v1beta1', () => {
  it('is reconciled: its namespace selector scopes it, its pods are seen, its revision carries its customVersion', async () => {
    await withController('sidecarset-v1beta1', async (namespace) => {
      const name = `v1beta1-${randomBytes(3).toString('hex')}`;
      const body = {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'SidecarSet',
        metadata: { name },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
          customVersion: 'v5',
          containers: [{ name: 'logger', image: 'busybox:1.36' }],
        },
      };
      await client.create(sidecarSetsV1beta1, body as unknown as SidecarSet);
      try {
        // creationTimestamp has whole seconds: a pod of the same second as the SidecarSet counts as after it.
        await new Promise((resolve) => setTimeout(resolve, 1100));
        await createPod(client, namespace, webPod('web-0'));
        const reconciled = await waitForSidecarSet(
          client,
          { name, description: 'the v1beta1 SidecarSet reported its pod' },
          (set) =>
            (set.status?.conditions ?? []).some(
              (condition) =>
                condition.type === MISSED_INJECTION && condition.message?.includes(`${namespace}/web-0`) === true,
            ),
        );
        expect(reconciled.metadata.labels?.[SIDECARSET_CUSTOM_VERSION_LABEL]).toBe('v5');
        const revisions = await waitFor(
          async () => {
            const list = (
              await client.list(controllerRevisionResource, {
                namespace,
                labelSelector: `${SIDECARSET_NAME_LABEL}=${name}`,
              })
            ).items;
            return list.length > 0 ? list : undefined;
          },
          { description: 'the SidecarSet revision' },
        );
        expect(revisions.map((revision) => revision.metadata?.labels?.[SIDECARSET_CUSTOM_VERSION_LABEL])).toEqual([
          'v5',
        ]);
        const beta = await client.get(sidecarSetsV1beta1, { name });
        expect((beta.spec as { customVersion?: string }).customVersion).toBe('v5');
        expect(beta.status?.observedGeneration).toBe(beta.metadata.generation);
      } finally {
        await client.delete(sidecarSetsV1beta1, { name }).catch(() => undefined);
      }
    });
  });
});
