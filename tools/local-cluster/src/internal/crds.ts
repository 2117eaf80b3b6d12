import { readFile } from 'node:fs/promises';

import type { KubeConfig, V1CustomResourceDefinition } from '@kubernetes/client-node';
import { ApiException, ApiextensionsV1Api, loadAllYaml } from '@kubernetes/client-node';

import { waitFor } from './wait-for.ts';

const MAX_WRITE_ATTEMPTS = 10;

/**
 * Creates or updates every CustomResourceDefinition in `files` (YAML, one or more documents each) and
 * waits until each is Established. Idempotent and safe when test files running in parallel apply the
 * same CRDs: an existing CRD is replaced with the file's content, retrying on write conflicts.
 */
export async function applyCrdFiles(kubeConfig: KubeConfig, files: readonly string[]): Promise<void> {
  const api = kubeConfig.makeApiClient(ApiextensionsV1Api);
  const crds = (await Promise.all(files.map(readCrds))).flat();
  for (const crd of crds) {
    await createOrReplace(api, crd);
  }
  await Promise.all(crds.map((crd) => waitForEstablished(api, crdName(crd))));
}

// loadAllYaml yields client-node model objects, which its typed API serialises back to the same JSON
// (including the x-kubernetes-* schema extensions).
async function readCrds(file: string): Promise<V1CustomResourceDefinition[]> {
  const documents: unknown[] = loadAllYaml(await readFile(file, 'utf8'));
  return documents.filter((document): document is V1CustomResourceDefinition => isCrd(document));
}

function isCrd(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const object = value as { kind?: unknown; metadata?: { name?: unknown } };
  return object.kind === 'CustomResourceDefinition' && typeof object.metadata?.name === 'string';
}

function crdName(crd: V1CustomResourceDefinition): string {
  return crd.metadata?.name ?? '';
}

async function createOrReplace(api: ApiextensionsV1Api, crd: V1CustomResourceDefinition): Promise<void> {
  for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
    try {
      await writeOnce(api, crd);
      return;
    } catch (error) {
      // 409: another test file created or updated the same CRD between our read and our write.
      if (!(error instanceof ApiException) || error.code !== 409 || attempt === MAX_WRITE_ATTEMPTS) {
        throw error;
      }
    }
  }
}

async function writeOnce(api: ApiextensionsV1Api, crd: V1CustomResourceDefinition): Promise<void> {
  const name = crdName(crd);
  const current = await readCrd(api, name);
  if (current === undefined) {
    await api.createCustomResourceDefinition({ body: crd });
    return;
  }
  // The object was read from the file by this call's caller only, so setting its resourceVersion is safe.
  // Labels and annotations others set stay (as with kubectl apply): a Helm release that owns the CRD
  // keeps its ownership annotations when a test re-applies the file meanwhile.
  const metadata = crd.metadata ?? {};
  crd.metadata = Object.assign(metadata, {
    resourceVersion: current.metadata?.resourceVersion,
    labels: { ...current.metadata?.labels, ...metadata.labels },
    annotations: { ...current.metadata?.annotations, ...metadata.annotations },
  });
  keepLocalConversion(crd, current);
  await api.replaceCustomResourceDefinition({ name, body: crd });
}

/**
 * A conversion webhook that a process next to this control plane pointed at itself (a URL: the
 * launcher, the test run's converter) stays when the file's conversion is a webhook too: the file names
 * the in-cluster Service, which nothing serves here, so replacing the URL would break every read of a
 * version other than the stored one.
 */
function keepLocalConversion(crd: V1CustomResourceDefinition, current: V1CustomResourceDefinition): void {
  const local = current.spec.conversion;
  if (
    crd.spec.conversion?.strategy === 'Webhook' &&
    local?.strategy === 'Webhook' &&
    local.webhook?.clientConfig?.url !== undefined
  ) {
    crd.spec.conversion = local;
  }
}

async function readCrd(api: ApiextensionsV1Api, name: string): Promise<V1CustomResourceDefinition | undefined> {
  try {
    return await api.readCustomResourceDefinition({ name });
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) {
      return undefined;
    }
    throw error;
  }
}

async function waitForEstablished(api: ApiextensionsV1Api, name: string): Promise<void> {
  await waitFor(
    async () => {
      const crd = await api.readCustomResourceDefinition({ name });
      return (
        crd.status?.conditions?.some((condition) => condition.type === 'Established' && condition.status === 'True') ===
        true
      );
    },
    { description: `CustomResourceDefinition ${name} to be Established` },
  );
}
