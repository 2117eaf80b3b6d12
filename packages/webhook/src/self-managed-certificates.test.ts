import { X509Certificate } from 'node:crypto';

import { describe, expect, it, vi } from 'vitest';

import { createLogger } from '@kruise-ts/controller-runtime';
import { FakeClient } from '@kruise-ts/controller-runtime/testing';
import { FakeClock } from '@kruise-ts/controller-runtime/testing';
import type { CertificateStore, ServingCertificate, StoredCertificates, StoreSnapshot } from './certificate-source.ts';
import {
  certificateValidity,
  generateCertificateAuthority,
  generateServingCertificate,
  renewalTime,
  splitPemCertificates,
} from './certificates.ts';
import { SecretCertificateStore, secretResource } from './secret-store.ts';
import { SelfManagedCertificates } from './self-managed-certificates.ts';

const logger = createLogger({ level: 'silent' });
const dnsNames = ['webhook.kruise-system.svc'];
const MINUTE = 60_000;

/** An in-memory store with versions and a switch to fail, shared by "replicas" in one test. */
class MemoryStore implements CertificateStore {
  certificates: StoredCertificates | undefined;
  version = 0;
  saves = 0;
  failNextLoad = false;

  async load(): Promise<StoreSnapshot> {
    await Promise.resolve();
    if (this.failNextLoad) {
      this.failNextLoad = false;
      throw new Error('the API server is unreachable');
    }
    return { certificates: this.certificates, version: this.version === 0 ? undefined : String(this.version) };
  }

  async save(certificates: StoredCertificates, version: string | undefined): Promise<boolean> {
    await Promise.resolve();
    if ((version ?? '0') !== String(this.version)) {
      return false;
    }
    this.certificates = certificates;
    this.version++;
    this.saves++;
    return true;
  }
}

function verifies(certificate: ServingCertificate | undefined): boolean {
  const caPem = splitPemCertificates(certificate?.caPem ?? '')[0] ?? '';
  return new X509Certificate(certificate?.certPem ?? '').verify(new X509Certificate(caPem).publicKey);
}

function recordChanges(source: SelfManagedCertificates): ServingCertificate[] {
  const changes: ServingCertificate[] = [];
  source.onChange((certificate) => changes.push(certificate));
  return changes;
}

describe('SelfManagedCertificates', () => {
  it('makes a CA and a serving certificate in memory and announces them', async () => {
    const source = new SelfManagedCertificates({ dnsNames, ipAddresses: ['127.0.0.1'], logger });
    const changes = recordChanges(source);
    await source.start(AbortSignal.abort());
    expect(changes).toHaveLength(1);
    expect(source.current()).toBe(changes[0]);
    expect(source.caBundle()).toBe(changes[0]?.caPem);
    expect(verifies(source.current())).toBe(true);
    expect(new X509Certificate(source.current()?.certPem ?? '').checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  it('renews the serving certificate once less than a third of its lifetime remains, keeping the CA', async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    const source = new SelfManagedCertificates({ dnsNames, logger, clock, resyncIntervalMs: 24 * 60 * MINUTE });
    const changes = recordChanges(source);
    await source.start(stop.signal);
    const first = source.current();
    const renewAt = renewalTime(certificateValidity(first?.certPem ?? ''));

    // Up to a minute before the renewal time, daily checks find nothing to do.
    clock.advance(renewAt - clock.now() - MINUTE);
    await vi.waitFor(() => {
      expect(clock.pendingTimers()).toBe(1);
    });
    expect(changes).toHaveLength(1);

    clock.advance(MINUTE);
    await vi.waitFor(() => {
      expect(changes).toHaveLength(2);
    });
    const renewed = source.current();
    expect(renewed?.certPem).not.toBe(first?.certPem);
    expect(renewed?.caPem).toBe(first?.caPem);
    expect(verifies(renewed)).toBe(true);
    expect(certificateValidity(renewed?.certPem ?? '').notBefore).toBeGreaterThan(renewAt - 2 * 60 * MINUTE);
    stop.abort();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('keeps serving and retries with backoff when a renewal fails', async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    const store = new MemoryStore();
    const source = new SelfManagedCertificates({
      dnsNames,
      logger,
      clock,
      store,
      retryBackoff: { initialMs: 1000, maxMs: 1000, jitter: 0 },
    });
    const changes = recordChanges(source);
    await source.start(stop.signal);
    const renewAt = renewalTime(certificateValidity(source.current()?.certPem ?? ''));
    store.failNextLoad = true;
    // Jump the hourly checks: the timer due next fires, at a time past the renewal.
    clock.advance(renewAt - clock.now() + MINUTE);
    await vi.waitFor(() => {
      expect(clock.pendingTimers()).toBe(1);
    });
    expect(changes).toHaveLength(1);
    clock.advance(1000);
    await vi.waitFor(() => {
      expect(changes).toHaveLength(2);
    });
    expect(store.saves).toBe(2);
    stop.abort();
  });

  it('replicas sharing a store use one CA and one serving certificate, also when they start at once', async () => {
    const store = new MemoryStore();
    const replicas = [0, 1, 2].map(() => new SelfManagedCertificates({ dnsNames, logger, store }));
    await Promise.all(replicas.map((replica) => replica.start(AbortSignal.abort())));
    expect(store.saves).toBe(1);
    for (const replica of replicas) {
      expect(replica.current()).toEqual({
        certPem: store.certificates?.certPem,
        keyPem: store.certificates?.keyPem,
        caPem: store.certificates?.caCertPem,
      });
    }
    const late = new SelfManagedCertificates({ dnsNames, logger, store });
    await late.start(AbortSignal.abort());
    expect(late.caBundle()).toBe(replicas[0]?.caBundle());
    expect(store.saves).toBe(1);
  });

  it('issues a new serving certificate from the stored CA when the names changed', async () => {
    const store = new MemoryStore();
    await new SelfManagedCertificates({ dnsNames, logger, store }).start(AbortSignal.abort());
    const before = store.certificates;
    const source = new SelfManagedCertificates({
      dnsNames: [...dnsNames, 'webhook.kruise-system.svc.cluster.local'],
      logger,
      store,
    });
    await source.start(AbortSignal.abort());
    expect(store.certificates?.caCertPem).toBe(before?.caCertPem);
    expect(store.certificates?.certPem).not.toBe(before?.certPem);
    expect(
      new X509Certificate(source.current()?.certPem ?? '').checkHost('webhook.kruise-system.svc.cluster.local'),
    ).toBeDefined();
  });

  it('replaces a CA that cannot outlive a new serving certificate: the new CA is trusted first, its certificate served once the bundle had time to reach the API server', async () => {
    const now = Date.UTC(2026, 0, 1);
    const oldCa = await generateCertificateAuthority({
      commonName: 'old',
      now: now - 3000 * 24 * 60 * MINUTE,
      validityMs: 3200 * 24 * 60 * MINUTE,
    });
    const oldServing = await generateServingCertificate({ ca: oldCa, dnsNames, now: now - 250 * 24 * 60 * MINUTE });
    const store = new MemoryStore();
    store.certificates = { caCertPem: oldCa.certPem, caKeyPem: oldCa.keyPem, ...oldServing };
    store.version = 1;
    const clock = new FakeClock(now);
    const source = new SelfManagedCertificates({ dnsNames, logger, store, clock, caPropagationMs: 2 * MINUTE });
    const changes = recordChanges(source);
    const stop = new AbortController();
    await source.start(stop.signal);
    const bundle = splitPemCertificates(source.caBundle() ?? '');
    expect(bundle).toHaveLength(2);
    expect(bundle[1]).toBe(oldCa.certPem);
    expect(new X509Certificate(bundle[0] ?? '').subject).toBe('CN=kruise-ts-webhook-ca');
    // The old CA's certificate serves on, under the new bundle, while the API server learns the new CA.
    expect(source.current()?.certPem).toBe(oldServing.certPem);
    expect(verifies(source.current())).toBe(false);
    clock.advance(MINUTE);
    expect(source.current()?.certPem).toBe(oldServing.certPem);
    clock.advance(MINUTE + 1);
    await vi.waitFor(() => {
      expect(source.current()?.certPem).not.toBe(oldServing.certPem);
    });
    expect(verifies(source.current())).toBe(true);
    expect(splitPemCertificates(source.caBundle() ?? '')).toHaveLength(2);
    expect(changes).toHaveLength(2);
    stop.abort();
  });

  it('serves with the new CA at once when the old certificate would not outlive the propagation', async () => {
    const now = Date.UTC(2026, 0, 1);
    const oldCa = await generateCertificateAuthority({
      commonName: 'old',
      now: now - 3000 * 24 * 60 * MINUTE,
      validityMs: 3200 * 24 * 60 * MINUTE,
    });
    const expiring = await generateServingCertificate({
      ca: oldCa,
      dnsNames,
      now: now - 365 * 24 * 60 * MINUTE + MINUTE,
    });
    const store = new MemoryStore();
    store.certificates = { caCertPem: oldCa.certPem, caKeyPem: oldCa.keyPem, ...expiring };
    store.version = 1;
    const source = new SelfManagedCertificates({
      dnsNames,
      logger,
      store,
      clock: new FakeClock(now),
      caPropagationMs: 2 * MINUTE,
    });
    await source.start(AbortSignal.abort());
    expect(source.current()?.certPem).not.toBe(expiring.certPem);
    expect(verifies(source.current())).toBe(true);
  });

  it('keeps them in a Secret through the client (ca.crt, ca.key, tls.crt, tls.key)', async () => {
    const client = new FakeClient();
    const store = (): SecretCertificateStore =>
      new SecretCertificateStore({ client, namespace: 'kruise-system', name: 'kruise-ts-webhook-certs' });
    const first = new SelfManagedCertificates({ dnsNames, logger, store: store() });
    const second = new SelfManagedCertificates({ dnsNames, logger, store: store() });
    const stop = new AbortController();
    await Promise.all([first.start(stop.signal), second.start(stop.signal)]);
    stop.abort();
    expect(second.current()).toEqual(first.current());
    const [secret] = client.objects(secretResource);
    expect(Object.keys(secret?.data ?? {}).sort()).toEqual(['ca.crt', 'ca.key', 'tls.crt', 'tls.key']);
    expect(Buffer.from(secret?.data?.['ca.crt'] ?? '', 'base64').toString()).toBe(first.caBundle());
    expect(client.writes().map((action) => action.verb)).toEqual(['create', 'create']);
  });
});
