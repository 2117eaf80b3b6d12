import { describe, expect, it } from 'vitest';

import { FakeClient } from '@kruise-ts/controller-runtime/testing';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
import { SecretCertificateStore, secretResource } from './secret-store.ts';

const certificates = { caCertPem: 'CA', caKeyPem: 'CAKEY', certPem: 'CERT', keyPem: 'KEY' };
const key = { namespace: 'kruise-system', name: 'webhook-certs' };
const b64 = (text: string): string => Buffer.from(text).toString('base64');

describe('SecretCertificateStore', () => {
  it('reads nothing from a missing Secret, creates it, and reads the certificates back', async () => {
    const client = new FakeClient();
    const store = new SecretCertificateStore({ client, ...key });
    const signal = new AbortController().signal;
    expect(await store.load(signal)).toEqual({ certificates: undefined, version: undefined });
    expect(await store.save(certificates, undefined, signal)).toBe(true);
    const loaded = await store.load(signal);
    expect(loaded.certificates).toEqual(certificates);
    expect(client.objects(secretResource)[0]?.data).toEqual({
      'ca.crt': b64('CA'),
      'ca.key': b64('CAKEY'),
      'tls.crt': b64('CERT'),
      'tls.key': b64('KEY'),
    });
  });

  it('fills in a Secret created beforehand, keeping its metadata and other keys', async () => {
    const client = new FakeClient();
    client.seed(secretResource, [
      { metadata: { ...key, labels: { app: 'kruise-ts' } }, type: 'Opaque', data: { other: b64('x'), 'tls.crt': '' } },
    ]);
    const store = new SecretCertificateStore({ client, ...key });
    const signal = new AbortController().signal;
    const snapshot = await store.load(signal);
    expect(snapshot.certificates).toBeUndefined();
    expect(await store.save(certificates, snapshot.version, signal)).toBe(true);
    const [secret] = client.objects(secretResource);
    expect(secret?.metadata?.labels).toEqual({ app: 'kruise-ts' });
    expect(secret?.data?.['other']).toBe(b64('x'));
    expect((await store.load(signal)).certificates).toEqual(certificates);
  });

  it('reports a lost race (stale version or created meanwhile) as false, and other errors as errors', async () => {
    const client = new FakeClient();
    const store = new SecretCertificateStore({ client, ...key });
    const signal = new AbortController().signal;
    await store.save(certificates, undefined, signal);
    const { version } = await store.load(signal);
    expect(await store.save({ ...certificates, certPem: 'NEW' }, version, signal)).toBe(true);
    expect(await store.save({ ...certificates, certPem: 'STALE' }, version, signal)).toBe(false);
    expect(await store.save(certificates, undefined, signal)).toBe(false);
    client.prependReactor({ verb: 'get' }, () => {
      throw fakeApiError({ code: 403, reason: 'Forbidden', message: 'secrets "webhook-certs" is forbidden' });
    });
    await expect(store.load(signal)).rejects.toThrow(/forbidden/);
  });
});
