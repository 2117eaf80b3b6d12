import { describe, expect, it } from 'vitest';

import type { KubeObject, ResourceType } from '@kruise-ts/controller-runtime';

import { conversionCrd, webhookConfiguration } from '../../test/support/openkruise-objects.ts';
import type { WebhookSpec } from '../../test/support/openkruise-objects.ts';
import { crdFinding, openKruiseService, webhookConfigurationFinding } from './findings.ts';
import { customResourceDefinitionResource, mutatingWebhookConfigurationResource } from './openkruise-objects.ts';

/** The object as the API server would answer it (uid and resourceVersion set), through the command's own parser. */
function asRead<T extends KubeObject>(resource: ResourceType<T>, object: KubeObject): T {
  if (resource.parse === undefined) {
    throw new Error('no parser');
  }
  return resource.parse({ ...object, metadata: { ...object.metadata, uid: 'uid-1', resourceVersion: '7' } });
}

const SERVICE = 'kruise-system/kruise-webhook-service';
const service = openKruiseService('kruise-system');

describe('webhookConfigurationFinding: which configurations are OpenKruise', () => {
  it.each<
    [
      string,
      { readonly name: string; readonly webhooks: readonly WebhookSpec[]; readonly expected: object | undefined },
    ]
  >([
    [
      "OpenKruise's, by name and Service; its pod webhook fails closed",
      {
        name: 'kruise-mutating-webhook-configuration',
        webhooks: [
          { name: 'mpod.kb.io', service: SERVICE },
          { name: 'mcloneset.kb.io', service: SERVICE, on: 'clonesets' },
        ],
        expected: {
          namedAsOpenKruise: true,
          webhooks: 2,
          openKruiseWebhooks: 2,
          podCreationBlockers: 1,
          elsewhere: [],
        },
      },
    ],
    [
      'renamed, recognised by its Service',
      {
        name: 'old-kruise-hooks',
        webhooks: [{ name: 'mpod.kb.io', service: SERVICE, failurePolicy: 'Ignore' }],
        expected: { namedAsOpenKruise: false, openKruiseWebhooks: 1, podCreationBlockers: 0 },
      },
    ],
    [
      "OpenKruise's name, another Service",
      {
        name: 'kruise-mutating-webhook-configuration',
        webhooks: [{ name: 'x.io', service: 'other/hooks' }],
        expected: { namedAsOpenKruise: true, openKruiseWebhooks: 0, elsewhere: ['other/hooks/mutate-pod'] },
      },
    ],
    [
      "OpenKruise's and another webhook",
      {
        name: 'shared',
        webhooks: [
          { name: 'a', service: SERVICE },
          { name: 'b', url: 'https://hooks.example.com/x' },
        ],
        expected: { openKruiseWebhooks: 1, elsewhere: ['https://hooks.example.com/x'] },
      },
    ],
    [
      'the same Service name in another namespace',
      {
        name: 'kruise-ts-sidecarset',
        webhooks: [{ name: 'mpod.kruise-ts.io', service: 'elsewhere/kruise-webhook-service' }],
        expected: undefined,
      },
    ],
    [
      'nothing to do with OpenKruise',
      {
        name: 'cert-manager-webhook',
        webhooks: [{ name: 'webhook.cert-manager.io', service: 'cert-manager/cert-manager-webhook' }],
        expected: undefined,
      },
    ],
  ])('%s', (_title, { name, webhooks, expected }) => {
    const finding = webhookConfigurationFinding(
      'mutating',
      asRead(mutatingWebhookConfigurationResource, webhookConfiguration(name, webhooks)),
      service,
    );
    if (expected === undefined) {
      expect(finding).toBeUndefined();
    } else {
      expect(finding).toMatchObject({ kind: 'mutating', name, uid: 'uid-1', ...expected });
    }
  });

  it("recognises the validating configuration by OpenKruise's name for it, not the mutating one's", () => {
    const read = asRead(
      mutatingWebhookConfigurationResource,
      webhookConfiguration('kruise-validating-webhook-configuration', []),
    );
    expect(webhookConfigurationFinding('validating', read, service)).toMatchObject({
      namedAsOpenKruise: true,
      webhooks: 0,
    });
    expect(webhookConfigurationFinding('mutating', read, service)).toBeUndefined();
  });
});

describe('crdFinding: which CRDs OpenKruise converts', () => {
  it.each([
    [
      'converted by OpenKruise, same schemas',
      { group: 'apps.kruise.io', plural: 'broadcastjobs', service: SERVICE, sameSchemas: true },
      { convertedByOpenKruise: true, sameSchemas: true, servedByKruiseTs: true },
    ],
    [
      'converted by OpenKruise, schemas differ',
      { group: 'apps.kruise.io', plural: 'statefulsets', service: SERVICE, sameSchemas: false },
      { convertedByOpenKruise: true, sameSchemas: false, servedByKruiseTs: true },
    ],
    [
      'a kind kruise-ts does not serve',
      { group: 'apps.kruise.io', plural: 'daemonsets', service: SERVICE, sameSchemas: false },
      { convertedByOpenKruise: true, servedByKruiseTs: false },
    ],
    [
      "a kind kruise-ts serves, converted by another webhook (kruise-ts's own)",
      {
        group: 'apps.kruise.io',
        plural: 'sidecarsets',
        service: 'kruise-system/kruise-ts-sidecarset-webhook',
        sameSchemas: false,
      },
      {
        convertedByOpenKruise: false,
        servedByKruiseTs: true,
        conversion: 'Webhook kruise-system/kruise-ts-sidecarset-webhook/convert',
      },
    ],
    [
      'no conversion webhook',
      { group: 'apps.kruise.io', plural: 'clonesets', sameSchemas: true },
      { convertedByOpenKruise: false, conversion: 'None' },
    ],
  ])('%s', (_title, shape, expected) => {
    const crd = asRead(customResourceDefinitionResource, conversionCrd({ kind: 'Thing', ...shape }));
    expect(crdFinding(crd, service)).toMatchObject({
      name: `${shape.plural}.apps.kruise.io`,
      versions: [
        { name: 'v1alpha1', served: true, storage: false },
        { name: 'v1beta1', served: true, storage: true },
      ],
      ...expected,
    });
  });

  it('leaves out CRDs of other projects', () => {
    const crd = asRead(
      customResourceDefinitionResource,
      conversionCrd({
        group: 'example.com',
        plural: 'widgets',
        kind: 'Widget',
        service: 'example/hooks',
        sameSchemas: true,
      }),
    );
    expect(crdFinding(crd, service)).toBeUndefined();
  });
});
