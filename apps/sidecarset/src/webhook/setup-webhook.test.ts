/**
 * PodWebhook=false (OpenKruise registers no pod webhook then): the pod handler is not served and the
 * local configuration is not written, so no pod gets sidecars; on by default.
 */
import { describe, expect, it, vi } from 'vitest';

import { FeatureGates } from '@kruise-ts/app-config';
import { createLogger, Manager } from '@kruise-ts/controller-runtime';
import { SelfManagedCertificates, WebhookServer } from '@kruise-ts/webhook';

import { sidecarSetOptionsFromFlags } from '../flags.ts';
import { addLocalPodWebhookConfiguration } from './local-webhook-configuration.ts';
import { POD_WEBHOOK_PATH, setupSidecarSetWebhook } from './setup-webhook.ts';
import { unreachableKubeConfig } from '@kruise-ts/controller-runtime/testing';

const logger = createLogger({ level: 'silent' });

/** A manager that is never started: registration only. */
function idleManager(): Manager {
  const kubeConfig = unreachableKubeConfig();
  return new Manager({
    kubeConfig,
    logger,
    gracefulShutdownTimeoutMs: 1000,
    leaderElection: {
      enabled: false,
      namespace: 'kube-system',
      name: 'x',
      leaseDurationMs: 1000,
      renewDeadlineMs: 800,
      retryPeriodMs: 100,
    },
  });
}

function register(gates: Record<string, boolean>): { paths: string[]; localConfigurations: number } {
  const manager = idleManager();
  const server = new WebhookServer({
    certificates: new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger }),
    logger,
    host: '127.0.0.1',
    port: 0,
  });
  const options = sidecarSetOptionsFromFlags({
    workers: 1,
    namespace: '',
    'sidecarset-excluded-namespaces': [],
    'sidecarset-revision-namespace': 'kruise-system',
    'sidecarset-validation-webhook': true,
    'leader-election-namespace': 'kruise-system',
    'expectation-timeout': 300_000,
    'feature-gates': new FeatureGates(gates),
  });
  setupSidecarSetWebhook(manager, server, options);
  const add = vi.spyOn(manager, 'add');
  addLocalPodWebhookConfiguration(manager, server, { name: 'local' });
  return { paths: server.paths(), localConfigurations: add.mock.calls.length };
}

describe('the PodWebhook gate', () => {
  it('on (the default): the pod handler is served and the local configuration written', () => {
    expect(register({})).toEqual({ paths: [POD_WEBHOOK_PATH], localConfigurations: 1 });
  });

  it('off: no pod handler and no local configuration, so no pod is injected', () => {
    expect(register({ PodWebhook: false })).toEqual({ paths: [], localConfigurations: 0 });
  });
});
