/**
 * Starts reference-webhook-server.ts and registers it for the benchmark's namespace (pods CREATE,
 * failurePolicy Ignore, as the contender's): kube-apiserver's admission duration of this webhook is
 * the floor that sidecarset-scale reports next to the contender's.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { defineResource } from '@kruise-ts/controller-runtime';
import type { Client, KubeObject } from '@kruise-ts/controller-runtime';

/** The reference webhook's name (the `name` label of kube-apiserver's admission metrics). */
export const REFERENCE_WEBHOOK_NAME = 'reference.bench.kruise-ts.io';
const CONFIGURATION = 'kruise-ts-bench-reference';
const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'reference-webhook-server.ts');

const mutatingWebhookConfigurations = defineResource<KubeObject & { readonly webhooks?: readonly object[] }>({
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  plural: 'mutatingwebhookconfigurations',
  kind: 'MutatingWebhookConfiguration',
  namespaced: false,
});

export interface ReferenceWebhook {
  /** Resolves at the webhook's first request (the API server's cache has its configuration). */
  readonly called: Promise<void>;
  stop(): Promise<void>;
}

function readLines(child: ChildProcess): {
  readonly listening: Promise<{ port: number; caPem: string }>;
  readonly called: Promise<void>;
} {
  const listening = Promise.withResolvers<{ port: number; caPem: string }>();
  const called = Promise.withResolvers<undefined>();
  child.once('exit', (code) => {
    const error = new Error(`the reference webhook exited (code ${String(code)})`);
    listening.reject(error);
    called.reject(error);
  });
  createInterface({ input: child.stdout ?? process.stdin }).on('line', (line) => {
    if (line === 'called') {
      called.resolve(undefined);
    } else {
      listening.resolve(JSON.parse(line) as { port: number; caPem: string });
    }
  });
  called.promise.catch(() => undefined);
  return { listening: listening.promise, called: called.promise };
}

/** Starts the reference webhook for pods created in `namespace`. */
export async function startReferenceWebhook(client: Client, namespace: string): Promise<ReferenceWebhook> {
  const child = spawn(process.execPath, ['--conditions=@kruise-ts/source', SERVER], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readLines(child);
  const { port, caPem } = await lines.listening;
  await client.create(mutatingWebhookConfigurations, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: CONFIGURATION },
    webhooks: [
      {
        name: REFERENCE_WEBHOOK_NAME,
        clientConfig: {
          url: `https://127.0.0.1:${String(port)}/mutate`,
          caBundle: Buffer.from(caPem).toString('base64'),
        },
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        failurePolicy: 'Ignore',
        timeoutSeconds: 10,
      },
    ],
  });
  return {
    called: lines.called,
    async stop() {
      await client.delete(mutatingWebhookConfigurations, { name: CONFIGURATION }).catch(() => undefined);
      child.stdin.end();
    },
  };
}
