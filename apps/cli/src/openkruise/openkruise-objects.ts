/**
 * What `migrate from-openkruise` reads, checked when it arrives from the API server: the webhook
 * configurations, the CRDs, and OpenKruise's Deployment and DaemonSet. Loose objects: only the fields
 * the command decides on are required; the rest is kept as it came.
 */
import { defineResource } from '@kruise-ts/controller-runtime';
import type { ResourceType } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

import { parseWith } from '../resources/resource-types.ts';

const stringMap = z.record(z.string(), z.string());

const metadataSchema = z.looseObject({
  name: z.string(),
  namespace: z.string().exactOptional(),
  uid: z.string(),
  resourceVersion: z.string(),
  generation: z.int().exactOptional(),
  annotations: stringMap.exactOptional(),
});

/** admissionregistration.k8s.io/v1 WebhookClientConfig and apiextensions.k8s.io/v1's, which has the same shape. */
const clientConfigSchema = z.looseObject({
  service: z
    .looseObject({
      namespace: z.string(),
      name: z.string(),
      path: z.string().exactOptional(),
      port: z.int().exactOptional(),
    })
    .exactOptional(),
  url: z.string().exactOptional(),
});

export type ClientConfig = z.output<typeof clientConfigSchema>;

const webhookSchema = z.looseObject({
  name: z.string(),
  clientConfig: clientConfigSchema,
  // The API server defaults it to Fail.
  failurePolicy: z.string().default('Fail'),
  rules: z
    .array(
      z.looseObject({
        operations: z.array(z.string()).exactOptional(),
        resources: z.array(z.string()).exactOptional(),
      }),
    )
    .exactOptional(),
});

export type Webhook = z.output<typeof webhookSchema>;

const webhookConfigurationSchema = z.looseObject({
  metadata: metadataSchema,
  webhooks: z.array(webhookSchema).default([]),
});

export type WebhookConfiguration = z.output<typeof webhookConfigurationSchema>;

export const mutatingWebhookConfigurationResource: ResourceType<WebhookConfiguration> =
  defineResource<WebhookConfiguration>({
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    plural: 'mutatingwebhookconfigurations',
    kind: 'MutatingWebhookConfiguration',
    namespaced: false,
    parse: parseWith(webhookConfigurationSchema, 'mutatingwebhookconfigurations.admissionregistration.k8s.io'),
  });

export const validatingWebhookConfigurationResource: ResourceType<WebhookConfiguration> =
  defineResource<WebhookConfiguration>({
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    plural: 'validatingwebhookconfigurations',
    kind: 'ValidatingWebhookConfiguration',
    namespaced: false,
    parse: parseWith(webhookConfigurationSchema, 'validatingwebhookconfigurations.admissionregistration.k8s.io'),
  });

const crdVersionSchema = z.looseObject({
  name: z.string(),
  served: z.boolean(),
  storage: z.boolean(),
  // Compared between versions, never read: kept as the server sent it.
  schema: z.looseObject({ openAPIV3Schema: z.unknown() }).exactOptional(),
});

const crdSchema = z.looseObject({
  metadata: metadataSchema,
  spec: z.looseObject({
    group: z.string(),
    names: z.looseObject({ kind: z.string(), plural: z.string() }),
    versions: z.array(crdVersionSchema),
    conversion: z
      .looseObject({
        strategy: z.string(),
        webhook: z.looseObject({ clientConfig: clientConfigSchema.exactOptional() }).exactOptional(),
      })
      .exactOptional(),
  }),
  status: z.looseObject({ storedVersions: z.array(z.string()).exactOptional() }).exactOptional(),
});

export type CustomResourceDefinition = z.output<typeof crdSchema>;

export const customResourceDefinitionResource: ResourceType<CustomResourceDefinition> =
  defineResource<CustomResourceDefinition>({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    parse: parseWith(crdSchema, 'customresourcedefinitions.apiextensions.k8s.io'),
  });

const selectorSchema = z.looseObject({
  matchLabels: stringMap.exactOptional(),
  matchExpressions: z
    .array(z.looseObject({ key: z.string(), operator: z.string(), values: z.array(z.string()).exactOptional() }))
    .exactOptional(),
});

const managerDeploymentSchema = z.looseObject({
  metadata: metadataSchema,
  spec: z.looseObject({ replicas: z.int().default(1), selector: selectorSchema }),
  status: z.looseObject({ replicas: z.int().exactOptional() }).exactOptional(),
});

/** OpenKruise's manager Deployment: its replicas and the selector of its pods. */
export type ManagerDeployment = z.output<typeof managerDeploymentSchema>;

export const managerDeploymentResource: ResourceType<ManagerDeployment> = defineResource<ManagerDeployment>({
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
  namespaced: true,
  parse: parseWith(managerDeploymentSchema, 'deployments.apps'),
});

const daemonSetSchema = z.looseObject({
  metadata: metadataSchema,
  status: z.looseObject({ desiredNumberScheduled: z.int().exactOptional() }).exactOptional(),
});

export type DaemonSet = z.output<typeof daemonSetSchema>;

export const daemonSetResource: ResourceType<DaemonSet> = defineResource<DaemonSet>({
  group: 'apps',
  version: 'v1',
  plural: 'daemonsets',
  kind: 'DaemonSet',
  namespaced: true,
  parse: parseWith(daemonSetSchema, 'daemonsets.apps'),
});
