/**
 * The test run's conversion webhook as a process of its own (started by conversion-global-setup.ts,
 * whose process cannot resolve the workspace packages' sources): one conversion webhook for the whole
 * test run, so that every test may read and write any served version of any kind, as on a cluster
 * where the apps run. It is the apps' own code: a WebhookServer serving `@kruise-ts/api`'s converter
 * at https://127.0.0.1:<port>/convert, with a certificate it makes. Every CRD of `crds/` is applied at
 * once and its conversion pointed here (LocalConversionWebhook, the launcher's own registration);
 * applyCrdFiles keeps a conversion that points at a URL, so tests that apply the CRDs again leave it in
 * place, and a CRD replaced otherwise (the chart tests' `helm install`, which points it at the
 * release's Service) is pointed back here within half a second. Prints `ready <url>` once registered;
 * stops on SIGTERM.
 *
 * Usage: node --conditions=@kruise-ts/source conversion-webhook-process.ts <kubeconfig>
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

import { KubeConfig } from '@kubernetes/client-node';

import { convertObject, CONVERSION_WEBHOOK_PATH, CRD_DEFINITIONS, CRDS_DIRECTORY } from '@kruise-ts/api';
import { createLogger } from '@kruise-ts/controller-runtime';
import {
  customResourceDefinitionResource,
  LocalConversionWebhook,
  SelfManagedCertificates,
  WebhookServer,
} from '@kruise-ts/webhook';
import type { CertificateSource } from '@kruise-ts/webhook';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { applyCrdFiles } from '@kruise-ts/local-cluster/testing';

async function main(kubeconfigPath: string): Promise<void> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  const logger = createLogger({ level: 'warn', base: { component: 'test-run-conversion' } });
  const files = (await readdir(CRDS_DIRECTORY))
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => path.join(CRDS_DIRECTORY, file));
  await applyCrdFiles(kubeConfig, files);
  const crds = CRD_DEFINITIONS.filter((definition) => definition.conversion?.strategy === 'Webhook').map(
    (definition) => `${definition.names.plural}.${definition.group}`,
  );
  const server = new WebhookServer({
    certificates: new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger }),
    logger,
    host: '127.0.0.1',
    port: 0,
  });
  server.registerConversion(CONVERSION_WEBHOOK_PATH, convertObject);
  const registration = new LocalConversionWebhook({
    client: testClient(kubeConfig),
    crds,
    port: () => server.listening(),
    certificates: server.certificates,
    logger,
  });
  const stop = new AbortController();
  const serving = server.start(stop.signal);
  const registered = registration.start(stop.signal);
  const url = `https://127.0.0.1:${String(await server.listening())}${CONVERSION_WEBHOOK_PATH}`;
  await waitUntilRegistered(kubeConfig, crds);
  const keeping = keepRegistered({ kubeConfig, crds, url, certificates: server.certificates }, stop.signal);
  process.once('SIGTERM', () => {
    stop.abort();
  });
  process.stdout.write(`ready ${url}\n`);
  await Promise.allSettled([serving, registered, keeping]);
}

/** Points a CRD whose conversion was replaced (by `helm install`) back at the run's converter, until the run ends. */
async function keepRegistered(
  input: {
    readonly kubeConfig: KubeConfig;
    readonly crds: readonly string[];
    readonly url: string;
    readonly certificates: CertificateSource;
  },
  signal: AbortSignal,
): Promise<void> {
  const client = testClient(input.kubeConfig);
  const pointBack = async (name: string): Promise<void> => {
    const crd = await client.get(customResourceDefinitionResource, { name });
    const caPem = input.certificates.current()?.caPem;
    if (crd.spec?.conversion?.webhook?.clientConfig?.url === input.url || caPem === undefined) {
      return;
    }
    const clientConfig = { service: null, url: input.url, caBundle: Buffer.from(caPem).toString('base64') };
    await client.patch(
      customResourceDefinitionResource,
      { name },
      {
        type: 'merge',
        body: {
          spec: { conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig } } },
        },
      },
    );
  };
  while (!signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    // A failed round (a CRD deleted and not yet back) is tried again in the next.
    await Promise.allSettled(input.crds.map(pointBack));
  }
}

/** Until every CRD's conversion points at a URL (the registration retries on its own). */
async function waitUntilRegistered(kubeConfig: KubeConfig, crds: readonly string[]): Promise<void> {
  const client = testClient(kubeConfig);
  for (let attempt = 0; attempt < 300; attempt++) {
    const urls = await Promise.all(
      crds.map(
        async (name) =>
          (await client.get(customResourceDefinitionResource, { name })).spec?.conversion?.webhook?.clientConfig?.url,
      ),
    );
    if (urls.every((url) => url !== undefined)) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the test run's conversion webhook was not registered on ${crds.join(', ')} within 30 s`);
}

const [kubeconfigPath] = process.argv.slice(2);
if (kubeconfigPath === undefined) {
  process.stderr.write('usage: conversion-webhook-process.ts <kubeconfig>\n');
  process.exit(2);
}
await main(kubeconfigPath);
