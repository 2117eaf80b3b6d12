import { describe, expect, it } from 'vitest';

import { installedWebhookConfigurations, parseWebhookConfigurations } from './openkruise-webhooks.ts';

// The shape of OpenKruise's config/webhook/manifests.yaml and patch_manifests.yaml, cut down.
const MANIFESTS = `---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1, v1beta1]
  clientConfig:
    service: { name: webhook-service, namespace: system, path: /mutate-pod }
  failurePolicy: Fail
  name: mpod.kb.io
  rules: [{ apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods] }]
  sideEffects: None
- clientConfig:
    service: { name: webhook-service, namespace: system, path: /mutate-apps-kruise-io-v1alpha1-cloneset }
  name: mcloneset.kb.io
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
- clientConfig:
    service: { name: webhook-service, namespace: system, path: /validate-pod }
  name: vpod.kb.io
---
apiVersion: v1
kind: Service
metadata:
  name: webhook-service
`;

const PATCH = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating-webhook-configuration
webhooks:
- name: mpod.kb.io
  namespaceSelector:
    matchExpressions: [{ key: control-plane, operator: DoesNotExist }]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
- name: vpod.kb.io
  objectSelector:
    matchExpressions: [{ key: policy.kruise.io/delete-protection, operator: Exists }]
`;

describe('installedWebhookConfigurations', () => {
  const installed = installedWebhookConfigurations(
    parseWebhookConfigurations(MANIFESTS),
    parseWebhookConfigurations(PATCH),
  );

  it('names them as kruise-manager looks them up (kustomize namePrefix kruise-), leaving other kinds out', () => {
    expect(installed.map((configuration) => [configuration.kind, configuration.metadata.name])).toEqual([
      ['MutatingWebhookConfiguration', 'kruise-mutating-webhook-configuration'],
      ['ValidatingWebhookConfiguration', 'kruise-validating-webhook-configuration'],
    ]);
  });

  it("merges each patched webhook's selectors into the webhook of the same name, keeping the rest as released", () => {
    const [mutating, validating] = installed;
    expect(mutating?.webhooks).toEqual([
      {
        admissionReviewVersions: ['v1', 'v1beta1'],
        clientConfig: { service: { name: 'webhook-service', namespace: 'system', path: '/mutate-pod' } },
        failurePolicy: 'Fail',
        name: 'mpod.kb.io',
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
        sideEffects: 'None',
        namespaceSelector: { matchExpressions: [{ key: 'control-plane', operator: 'DoesNotExist' }] },
      },
      {
        clientConfig: {
          service: { name: 'webhook-service', namespace: 'system', path: '/mutate-apps-kruise-io-v1alpha1-cloneset' },
        },
        name: 'mcloneset.kb.io',
      },
    ]);
    expect(validating?.webhooks[0]).toMatchObject({
      name: 'vpod.kb.io',
      objectSelector: { matchExpressions: [{ key: 'policy.kruise.io/delete-protection', operator: 'Exists' }] },
    });
  });
});
