import { createPrivateKey, X509Certificate } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  CA_VALIDITY_MS,
  certificateValidity,
  generateCertificateAuthority,
  generateServingCertificate,
  isCertificateAuthorityUsable,
  isServingCertificateUsable,
  renewalTime,
  SERVING_VALIDITY_MS,
  splitPemCertificates,
} from './certificates.ts';

const NOW = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const dnsNames = ['kruise-ts-webhook.kruise-system.svc', 'kruise-ts-webhook.kruise-system.svc.cluster.local'];

describe('certificates', async () => {
  const ca = await generateCertificateAuthority({ commonName: 'kruise-ts-webhook-ca', now: NOW });
  const serving = await generateServingCertificate({ ca, dnsNames, ipAddresses: ['127.0.0.1', '::1'], now: NOW });

  it('makes a 10-year ECDSA P-256 CA', () => {
    const certificate = new X509Certificate(ca.certPem);
    expect(certificate.ca).toBe(true);
    expect(certificate.subject).toBe('CN=kruise-ts-webhook-ca');
    expect(certificate.checkIssued(certificate)).toBe(true);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.publicKey.asymmetricKeyDetails).toMatchObject({ namedCurve: 'prime256v1' });
    expect(certificate.checkPrivateKey(createPrivateKey(ca.keyPem))).toBe(true);
    expect(certificateValidity(ca.certPem)).toEqual({ notBefore: NOW - HOUR, notAfter: NOW + CA_VALIDITY_MS });
  });

  it('makes a 1-year serving certificate that verifies against the CA for every name and address', () => {
    const certificate = new X509Certificate(serving.certPem);
    const authority = new X509Certificate(ca.certPem);
    expect(certificate.ca).toBe(false);
    expect(certificate.checkIssued(authority)).toBe(true);
    expect(certificate.verify(authority.publicKey)).toBe(true);
    expect(certificate.checkPrivateKey(createPrivateKey(serving.keyPem))).toBe(true);
    for (const name of dnsNames) {
      expect(certificate.checkHost(name)).toBe(name);
    }
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkIP('::1')).toBe('::1');
    expect(certificate.checkHost('other.kruise-system.svc')).toBeUndefined();
    expect(certificate.checkIP('10.0.0.1')).toBeUndefined();
    expect(certificate.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(certificateValidity(serving.certPem)).toEqual({
      notBefore: NOW - HOUR,
      notAfter: NOW + SERVING_VALIDITY_MS,
    });
  });

  it('a certificate of another CA does not verify', async () => {
    const other = await generateCertificateAuthority({ commonName: 'other', now: NOW });
    const certificate = new X509Certificate(serving.certPem);
    expect(certificate.verify(new X509Certificate(other.certPem).publicKey)).toBe(false);
    expect(isServingCertificateUsable(serving, { ca: other, dnsNames, now: NOW })).toBe(false);
  });

  it('is due for renewal when less than a third of its lifetime remains', () => {
    const validity = certificateValidity(serving.certPem);
    const due = renewalTime(validity);
    expect(validity.notAfter - due).toBeCloseTo((validity.notAfter - validity.notBefore) / 3, -1);
    expect(isServingCertificateUsable(serving, { ca, dnsNames, ipAddresses: ['127.0.0.1'], now: due - 1 })).toBe(true);
    expect(isServingCertificateUsable(serving, { ca, dnsNames, ipAddresses: ['127.0.0.1'], now: due })).toBe(false);
  });

  it.each([
    { name: 'a missing DNS name', change: { dnsNames: [...dnsNames, 'x.y.svc'] } },
    { name: 'a missing IP address', change: { ipAddresses: ['10.0.0.1'] } },
  ])('is not usable with $name', ({ change }) => {
    expect(isServingCertificateUsable(serving, { ca, dnsNames, now: NOW, ...change })).toBe(false);
  });

  it('is not usable with a key of another certificate or garbage', async () => {
    const other = await generateServingCertificate({ ca, dnsNames, now: NOW });
    expect(
      isServingCertificateUsable({ certPem: serving.certPem, keyPem: other.keyPem }, { ca, dnsNames, now: NOW }),
    ).toBe(false);
    expect(isServingCertificateUsable({ certPem: 'garbage', keyPem: 'garbage' }, { ca, dnsNames, now: NOW })).toBe(
      false,
    );
  });

  it('a CA is usable while it outlives a new serving certificate', () => {
    const notAfter = NOW + CA_VALIDITY_MS;
    expect(
      isCertificateAuthorityUsable(ca, {
        now: notAfter - SERVING_VALIDITY_MS - 1,
        servingValidityMs: SERVING_VALIDITY_MS,
      }),
    ).toBe(true);
    expect(
      isCertificateAuthorityUsable(ca, { now: notAfter - SERVING_VALIDITY_MS, servingValidityMs: SERVING_VALIDITY_MS }),
    ).toBe(false);
    expect(isCertificateAuthorityUsable(serving, { now: NOW, servingValidityMs: SERVING_VALIDITY_MS })).toBe(false);
  });

  it('signs with the first CA of a bundle and splits bundles', async () => {
    const older = await generateCertificateAuthority({ commonName: 'older', now: NOW });
    const bundle = ca.certPem + older.certPem;
    expect(splitPemCertificates(bundle)).toEqual([ca.certPem, older.certPem]);
    const next = await generateServingCertificate({ ca: { certPem: bundle, keyPem: ca.keyPem }, dnsNames, now: NOW });
    expect(new X509Certificate(next.certPem).verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
  });

  it('refuses no DNS names and bad IP addresses', async () => {
    await expect(generateServingCertificate({ ca, dnsNames: [], now: NOW })).rejects.toThrow(/DNS name/);
    await expect(generateServingCertificate({ ca, dnsNames, ipAddresses: ['localhost'], now: NOW })).rejects.toThrow(
      /not IP addresses: localhost/,
    );
  });
});
