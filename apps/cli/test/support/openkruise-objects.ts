/**
 * OpenKruise-shaped objects for the tests of `migrate from-openkruise`: webhook configurations calling
 * a Service, a CRD whose versions a webhook converts, and the manager Deployment. Only the shape the
 * command reads; valid for the real API server too (no OpenKruise schema is reproduced).
 */
import type { KubeObject } from '@kruise-ts/controller-runtime';

export interface WebhookSpec {
  readonly name: string;
  /** `namespace/name` of the Service it calls; or a URL. */
  readonly service?: string;
  readonly url?: string;
  readonly failurePolicy?: 'Fail' | 'Ignore';
  /** Pods CREATE (the default) or CloneSets. */
  readonly on?: 'pods' | 'clonesets';
  /** Only the namespaces with these names (a test must not block other tests' pods). */
  readonly namespaces?: readonly string[];
}

export interface WebhookConfigurationManifest extends KubeObject {
  readonly webhooks: readonly object[];
}

export function webhookConfiguration(name: string, webhooks: readonly WebhookSpec[]): WebhookConfigurationManifest {
  return { metadata: { name }, webhooks: webhooks.map(webhook) };
}

function webhook(spec: WebhookSpec): object {
  const [namespace = '', service = ''] = (spec.service ?? '').split('/');
  const clientConfig =
    spec.url === undefined
      ? { service: { namespace, name: service, path: '/mutate-pod', port: 443 } }
      : { url: spec.url };
  const rule =
    spec.on === 'clonesets'
      ? {
          apiGroups: ['apps.kruise.io'],
          apiVersions: ['v1alpha1'],
          operations: ['CREATE', 'UPDATE'],
          resources: ['clonesets'],
        }
      : { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] };
  return {
    name: spec.name,
    clientConfig,
    failurePolicy: spec.failurePolicy ?? 'Fail',
    rules: [rule],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 5,
    ...(spec.namespaces === undefined
      ? {}
      : {
          namespaceSelector: {
            matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [...spec.namespaces] }],
          },
        }),
  };
}

export interface CrdManifest extends KubeObject {
  readonly spec: object;
}

const objectSchema = (field: string): object => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: { [field]: { type: 'string' } } } },
});

/**
 * A CRD with versions v1alpha1 and v1beta1 (storage), converted by the webhook of `service`
 * (`namespace/name`) or by None; with `sameSchemas` false, v1beta1 has another field.
 */
export function conversionCrd(input: {
  readonly group: string;
  readonly plural: string;
  readonly kind: string;
  readonly service?: string;
  readonly sameSchemas: boolean;
}): CrdManifest {
  const { group, plural, kind } = input;
  const [namespace = '', name = ''] = (input.service ?? '').split('/');
  return {
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      scope: 'Namespaced',
      versions: [
        { name: 'v1alpha1', served: true, storage: false, schema: { openAPIV3Schema: objectSchema('image') } },
        {
          name: 'v1beta1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: objectSchema(input.sameSchemas ? 'image' : 'images') },
        },
      ],
      conversion:
        input.service === undefined
          ? { strategy: 'None' }
          : {
              strategy: 'Webhook',
              webhook: {
                clientConfig: { service: { namespace, name, path: '/convert', port: 443 } },
                conversionReviewVersions: ['v1', 'v1beta1'],
              },
            },
    },
  };
}

export interface DeploymentManifest extends KubeObject {
  readonly spec: object;
}

/** OpenKruise's manager as its chart makes it: label control-plane=controller-manager. */
export function managerDeployment(namespace: string, replicas: number): DeploymentManifest {
  const labels = { 'control-plane': 'controller-manager' };
  return {
    metadata: { name: 'kruise-controller-manager', namespace, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'manager', image: 'openkruise/kruise-manager:v1.9.0' }] },
      },
    },
  };
}
