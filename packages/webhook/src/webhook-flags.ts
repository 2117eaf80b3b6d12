/**
 * The webhook server of an app (or of the all-in-one process) from its flags: where it listens, where
 * its certificates come from (made by the app and shared through a Secret, as OpenKruise does, or
 * files that cert-manager mounts), and which webhook configurations get the CA bundle. Only an app's
 * main (and the launcher) call it.
 */
import { z } from 'zod';

import { booleanFlag, countFlag } from '@kruise-ts/controller-runtime';
import type { Manager } from '@kruise-ts/controller-runtime';
import { CaBundleInjector } from './ca-bundle-injector.ts';
import type { CaBundleTarget } from './ca-bundle-injector.ts';
import type { CertificateSource } from './certificate-source.ts';
import { FileCertificates } from './file-certificates.ts';
import { SecretCertificateStore } from './secret-store.ts';
import { SelfManagedCertificates } from './self-managed-certificates.ts';
import { WebhookServer } from './webhook-server.ts';

const list = z
  .string()
  .default('')
  .transform((text) =>
    text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  );

/** The flags of the webhook server, added to an app's by its main when it serves webhooks. */
export const webhookFlagsShape = {
  // OpenKruise's webhook port (its WEBHOOK_PORT): the chart's Service targets it.
  'webhook-port': countFlag('a port', 'non-negative').pipe(z.number().int().max(65_535)).default(9876),
  'webhook-host': z.string().default(''),
  // Serve from an admission thread of its own (the SidecarSet pod webhook's answers then never wait behind reconciles).
  'webhook-thread': booleanFlag().default(true),
  // A directory with tls.crt, tls.key and ca.crt (cert-manager); empty: the app makes its own.
  'webhook-cert-dir': z.string().default(''),
  // The Service the API server calls: the names the serving certificate is for.
  'webhook-service-name': z.string().min(1).default('kruise-ts-webhook'),
  'webhook-service-namespace': z.string().min(1).default('kruise-system'),
  // The Secret (in the service namespace) where replicas share the certificates; empty: in memory only.
  'webhook-certs-secret': z.string().default(''),
  // MutatingWebhookConfigurations whose caBundle the app keeps (not with --webhook-cert-dir, where cert-manager does).
  'webhook-mutating-configurations': list,
  // ValidatingWebhookConfigurations whose caBundle the app keeps (the workload apps' template validation).
  'webhook-validating-configurations': list,
  // CustomResourceDefinitions whose conversion webhook's caBundle the app keeps (the kinds it converts).
  'webhook-conversion-crds': list,
};

/** The parsed webhook flags. */
export interface WebhookFlags {
  readonly 'webhook-port': number;
  readonly 'webhook-host': string;
  readonly 'webhook-thread': boolean;
  readonly 'webhook-cert-dir': string;
  readonly 'webhook-service-name': string;
  readonly 'webhook-service-namespace': string;
  readonly 'webhook-certs-secret': string;
  readonly 'webhook-mutating-configurations': readonly string[];
  readonly 'webhook-validating-configurations': readonly string[];
  readonly 'webhook-conversion-crds': readonly string[];
}

/** The DNS names of the Service, as the API server may call it, and the loopback address for local use. */
function serviceNames(flags: WebhookFlags): string[] {
  const base = `${flags['webhook-service-name']}.${flags['webhook-service-namespace']}`;
  return [flags['webhook-service-name'], base, `${base}.svc`, `${base}.svc.cluster.local`];
}

function certificatesFromFlags(
  manager: Manager,
  flags: WebhookFlags,
): CertificateSource & { readonly kind: 'files' | 'self' } {
  if (flags['webhook-cert-dir'] !== '') {
    return Object.assign(new FileCertificates({ directory: flags['webhook-cert-dir'], logger: manager.logger }), {
      kind: 'files' as const,
    });
  }
  const secret = flags['webhook-certs-secret'];
  const store =
    secret === ''
      ? undefined
      : new SecretCertificateStore({
          client: manager.client,
          namespace: flags['webhook-service-namespace'],
          name: secret,
        });
  return Object.assign(
    new SelfManagedCertificates({
      dnsNames: serviceNames(flags),
      ipAddresses: ['127.0.0.1'],
      logger: manager.logger,
      store,
    }),
    { kind: 'self' as const },
  );
}

/**
 * Creates the process's webhook server and adds it to the manager (it runs on every replica), with a
 * CA-bundle injector for the named configurations (extra ones from the caller, e.g. the launcher's
 * local configurations); apps register their handlers on the returned server before the manager starts.
 */
export function webhookServerFromFlags(
  manager: Manager,
  flags: WebhookFlags,
  extraTargets: readonly CaBundleTarget[] = [],
): WebhookServer {
  const certificates = certificatesFromFlags(manager, flags);
  const server = new WebhookServer({
    certificates,
    logger: manager.logger.child({ component: 'webhook' }),
    host: flags['webhook-host'] === '' ? undefined : flags['webhook-host'],
    port: flags['webhook-port'],
    registry: manager.metrics.registry,
    admissionThread: flags['webhook-thread'],
  });
  manager.add(server);
  manager.addReadyzCheck('webhook', server.startedChecker());
  const targets: CaBundleTarget[] = [
    ...flags['webhook-mutating-configurations'].map((name) => ({
      kind: 'MutatingWebhookConfiguration' as const,
      name,
    })),
    ...flags['webhook-validating-configurations'].map((name) => ({
      kind: 'ValidatingWebhookConfiguration' as const,
      name,
    })),
    ...flags['webhook-conversion-crds'].map((name) => ({
      kind: 'CustomResourceDefinition' as const,
      name,
      calls: { service: { name: flags['webhook-service-name'], namespace: flags['webhook-service-namespace'] } },
    })),
    ...extraTargets,
  ];
  if (targets.length > 0 && certificates.kind === 'self') {
    manager.add(
      new CaBundleInjector({
        client: manager.client,
        certificates,
        targets,
        logger: manager.logger.child({ component: 'ca-bundle' }),
      }),
    );
  }
  return server;
}
