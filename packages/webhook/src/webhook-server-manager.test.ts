import https from 'node:https';

import { describe, expect, it } from 'vitest';

import { createLogger } from '@kruise-ts/controller-runtime';
import { Manager } from '@kruise-ts/controller-runtime';
import { allowedResponse } from './admission-review.ts';
import { SelfManagedCertificates } from './self-managed-certificates.ts';
import { WebhookServer } from './webhook-server.ts';
import { unreachableKubeConfig } from '@kruise-ts/controller-runtime/testing';

/** A manager whose API server cannot be reached: it can never win the lease. */
function managerWithoutLease(): Manager {
  const kubeConfig = unreachableKubeConfig();
  return new Manager({
    kubeConfig,
    logger: createLogger({ level: 'silent' }),
    gracefulShutdownTimeoutMs: 2000,
    leaderElection: {
      enabled: true,
      namespace: 'kube-system',
      name: 'webhook-test',
      leaseDurationMs: 1000,
      renewDeadlineMs: 800,
      retryPeriodMs: 100,
    },
  });
}

function post(port: number, ca: string): Promise<unknown> {
  const body = JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'u',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      operation: 'CREATE',
      userInfo: {},
    },
  });
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port,
        path: '/validate',
        method: 'POST',
        ca,
        agent: false,
        headers: { 'Content-Type': 'application/json' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve(JSON.parse(Buffer.concat(chunks).toString()));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('WebhookServer in a manager', () => {
  it('serves on a replica that is not the leader, with its metrics on the manager registry', async () => {
    const manager = managerWithoutLease();
    const logger = manager.logger;
    const certificates = new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger });
    const server = new WebhookServer({
      certificates,
      logger,
      host: '127.0.0.1',
      port: 0,
      registry: manager.metrics.registry,
    });
    server.register('/validate', () => Promise.resolve(allowedResponse()), { failurePolicy: 'deny' });
    manager.add(server);
    let leaderStarted = false;
    manager.add({
      needLeaderElection: true,
      start: () => {
        leaderStarted = true;
        return Promise.resolve();
      },
    });
    manager.addReadyzCheck('webhook', server.startedChecker());
    const stop = new AbortController();
    const done = manager.start(stop.signal);
    const port = await server.listening();

    expect(await post(port, certificates.caBundle() ?? '')).toMatchObject({ response: { uid: 'u', allowed: true } });
    expect(leaderStarted).toBe(false);
    expect(await manager.metrics.registry.metrics()).toContain(
      'controller_runtime_webhook_requests_total{webhook="/validate",code="200"} 1',
    );
    stop.abort();
    await done;
    expect(server.port()).toBeUndefined();
  });
});
