/**
 * OpenKruise's webhook configurations as its installation (config/default, kustomize) writes them:
 * config/webhook/manifests.yaml with the selectors of patch_manifests.yaml merged in by webhook name,
 * the names prefixed `kruise-`. kruise-manager's webhook controller only updates configurations that
 * exist (it fails its start-up otherwise): it fills in the CA bundle and, with WEBHOOK_HOST set, turns
 * each service reference into a URL on that host, and drops the webhooks whose handlers are off.
 */
import { readFile } from 'node:fs/promises';

import { AdmissionregistrationV1Api, loadAllYaml } from '@kubernetes/client-node';
import type {
  KubeConfig,
  V1MutatingWebhookConfiguration,
  V1ValidatingWebhookConfiguration,
} from '@kubernetes/client-node';
import { z } from 'zod';

import { openKruiseSourceFiles } from './openkruise-paths.ts';

/** config/default's namePrefix: kruise-manager looks its configurations up by the prefixed names. */
const NAME_PREFIX = 'kruise-';

const webhookSchema = z.looseObject({ name: z.string() });
const configurationSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.enum(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']),
  metadata: z.looseObject({ name: z.string() }),
  webhooks: z.array(webhookSchema).default([]),
});

export type WebhookConfigurationManifest = z.output<typeof configurationSchema>;

/** The webhook configurations among YAML documents (others, such as a Service, are left out). */
export function parseWebhookConfigurations(yaml: string): WebhookConfigurationManifest[] {
  const documents: unknown[] = loadAllYaml(yaml);
  return documents.flatMap((document) => {
    const parsed = configurationSchema.safeParse(document);
    return parsed.success ? [parsed.data] : [];
  });
}

/** `patch`'s fields merged into each webhook of the same name (kustomize's strategic merge of the webhooks list, keyed by name). */
function mergeWebhooks(
  webhooks: readonly WebhookConfigurationManifest['webhooks'][number][],
  patch: WebhookConfigurationManifest | undefined,
): WebhookConfigurationManifest['webhooks'] {
  return webhooks.map((webhook) => {
    const patched = patch?.webhooks.find((candidate) => candidate.name === webhook.name);
    return patched === undefined ? webhook : { ...webhook, ...patched };
  });
}

/** The installed configurations: `manifests` patched by `patches` (matched by kind and name), then renamed with the prefix. */
export function installedWebhookConfigurations(
  manifests: readonly WebhookConfigurationManifest[],
  patches: readonly WebhookConfigurationManifest[],
): WebhookConfigurationManifest[] {
  return manifests.map((manifest) => {
    const patch = patches.find(
      (candidate) => candidate.kind === manifest.kind && candidate.metadata.name === manifest.metadata.name,
    );
    return {
      ...manifest,
      metadata: { ...manifest.metadata, name: `${NAME_PREFIX}${manifest.metadata.name}` },
      webhooks: mergeWebhooks(manifest.webhooks, patch),
    };
  });
}

/** The configurations of an OpenKruise checkout (`config/webhook`). */
export async function readWebhookConfigurations(sourceDir: string): Promise<WebhookConfigurationManifest[]> {
  const files = openKruiseSourceFiles(sourceDir);
  const read = async (file: string): Promise<WebhookConfigurationManifest[]> =>
    parseWebhookConfigurations(await readFile(file, 'utf8'));
  return installedWebhookConfigurations(await read(files.webhookManifests), await read(files.webhookPatch));
}

/** Creates the configurations as the admin (a fresh cluster has none). */
export async function createWebhookConfigurations(
  admin: KubeConfig,
  configurations: readonly WebhookConfigurationManifest[],
): Promise<void> {
  const api = admin.makeApiClient(AdmissionregistrationV1Api);
  for (const configuration of configurations) {
    // The manifests are the API's own objects, validated above for what this code reads; the API server validates the rest.
    if (configuration.kind === 'MutatingWebhookConfiguration') {
      await api.createMutatingWebhookConfiguration({
        body: configuration as unknown as V1MutatingWebhookConfiguration,
      });
    } else {
      await api.createValidatingWebhookConfiguration({
        body: configuration as unknown as V1ValidatingWebhookConfiguration,
      });
    }
  }
}
