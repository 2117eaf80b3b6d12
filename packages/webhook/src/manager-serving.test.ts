/**
 * When a manager's webhook server serves, relative to its caches and its shutdown (issue 39). The
 * chart's webhook Services publish not-ready addresses, because a CRD's conversion webhook is served
 * by the very replicas whose caches need that conversion to sync: so a replica must listen before its
 * caches have synced (it is not Ready meanwhile), and it is still called while it shuts down (a
 * terminating pod stays an endpoint until it is gone), so it must keep answering while it drains.
 */
import http from 'node:http';
import https from 'node:https';

import { afterEach, describe, expect, it } from 'vitest';

import type { KubeObject } from '@kruise-ts/controller-runtime';
import { defineResource } from '@kruise-ts/controller-runtime';
import { createLogger } from '@kruise-ts/controller-runtime';
import { allowedResponse } from './admission-review.ts';
import { SelfManagedCertificates } from './self-managed-certificates.ts';
import { WebhookServer } from './webhook-server.ts';
import { Manager } from '@kruise-ts/controller-runtime';
import { unreachableKubeConfig } from '@kruise-ts/controller-runtime/testing';

const logger = createLogger({ level: 'silent' });
const thingResource = defineResource<KubeObject>({
  group: 'example.com',
  version: 'v1',
  plural: 'things',
  kind: 'Thing',
  namespaced: true,
});

/** A manager whose API server cannot be reached: its caches never sync and it never leads. */
function offlineManager(): Manager {
  const kubeConfig = unreachableKubeConfig();
  return new Manager({
    kubeConfig,
    logger,
    healthProbeAddress: '127.0.0.1:0',
    gracefulShutdownTimeoutMs: 5000,
    leaderElection: {
      enabled: true,
      namespace: 'kube-system',
      name: 'serving-test',
      leaseDurationMs: 1000,
      renewDeadlineMs: 800,
      retryPeriodMs: 100,
    },
  });
}

function withServer(manager: Manager): {
  readonly server: WebhookServer;
  readonly certificates: SelfManagedCertificates;
} {
  const certificates = new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger });
  const server = new WebhookServer({
    certificates,
    logger,
    host: '127.0.0.1',
    port: 0,
    registry: manager.metrics.registry,
  });
  server.register('/validate', () => Promise.resolve(allowedResponse()), { failurePolicy: 'deny' });
  server.registerConversion('/convert', (object) => ({ ok: true, object: { ...(object as object), converted: true } }));
  manager.add(server);
  manager.addReadyzCheck('webhook', server.startedChecker());
  return { server, certificates };
}

function postConversion(port: number, ca: string): Promise<number> {
  const body = JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: 'c', desiredAPIVersion: 'example.com/v2', objects: [{ a: 1 }] },
  });
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port,
        path: '/convert',
        method: 'POST',
        ca,
        agent: false,
        headers: { 'Content-Type': 'application/json' },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          resolve(response.statusCode ?? 0);
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function readyz(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/readyz' }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

describe('a manager with a webhook server', () => {
  it('listens and converts before its caches have synced, and is not Ready until they have', async () => {
    const manager = offlineManager();
    manager.informers.informerFor({ resource: thingResource });
    const { server, certificates } = withServer(manager);
    const stop = new AbortController();
    const done = manager.start(stop.signal);
    stops.push(async () => {
      stop.abort();
      await done;
    });
    const port = await server.listening();
    expect(manager.informers.hasSynced()).toBe(false);
    expect(await postConversion(port, certificates.caBundle() ?? '')).toBe(200);
    expect(await readyz(manager.boundPorts().health ?? 0)).toBe(500);
  });

  it('keeps answering while its other runnables drain after the stop signal, and stops before start returns', async () => {
    const manager = offlineManager();
    const { server, certificates } = withServer(manager);
    const draining = Promise.withResolvers<undefined>();
    // A runnable that takes a while to finish once told to stop, as a reconcile in flight does.
    manager.add({
      start: (signal) =>
        new Promise((resolve) => {
          signal.addEventListener(
            'abort',
            () => {
              draining.resolve(undefined);
              setTimeout(resolve, 1500);
            },
            { once: true },
          );
        }),
    });
    const stop = new AbortController();
    const done = manager.start(stop.signal);
    const port = await server.listening();
    const ca = certificates.caBundle() ?? '';
    stop.abort();
    await draining.promise;
    expect(await postConversion(port, ca)).toBe(200);
    await done;
    expect(server.port()).toBeUndefined();
    await expect(postConversion(port, ca)).rejects.toThrow(/ECONNREFUSED/);
  });
});
