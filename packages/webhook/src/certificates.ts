/**
 * The webhook server's own certificates, as OpenKruise makes them (pkg/webhook/util/generator): a
 * self-signed CA and a serving certificate it signs for the Service's DNS names. ECDSA P-256 keys,
 * SHA-256 signatures, PEM (PKCS#8 keys). The API server (Go) checks names only against the subject
 * alternative names, so every DNS name and IP address goes there.
 */
import { createPrivateKey, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

import type * as X509 from '@peculiar/x509';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A CA lives 10 years, as OpenKruise's and client-go's self-signed ones. */
export const CA_VALIDITY_MS = 3650 * DAY_MS;
/** A serving certificate lives one year and is renewed when a third of that remains. */
export const SERVING_VALIDITY_MS = 365 * DAY_MS;
/** Certificates start an hour in the past (as client-go's), so that a peer whose clock is behind accepts them. */
const BACKDATE_MS = 60 * 60 * 1000;

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
// Node's WebCrypto, given to every call instead of replacing the library's global provider.
const crypto = webcrypto;

let library: Promise<typeof X509> | undefined;

/**
 * @peculiar/x509, loaded on first use: loading it takes about 200 ms, which apps without webhooks
 * should not pay at start-up. It resolves its algorithms through tsyringe, which needs the Reflect
 * metadata polyfill to be evaluated first.
 */
function loadX509(): Promise<typeof X509> {
  library ??= import('reflect-metadata').then(() => import('@peculiar/x509'));
  return library;
}

/** A certificate and its private key, PEM. */
export interface CertificateKeyPair {
  readonly certPem: string;
  readonly keyPem: string;
}

export interface CertificateAuthorityOptions {
  readonly commonName: string;
  /** Milliseconds since the epoch the validity counts from. */
  readonly now: number;
  readonly validityMs?: number | undefined;
}

export interface ServingCertificateOptions {
  readonly ca: CertificateKeyPair;
  /** e.g. `kruise-ts-webhook.kruise-system.svc` and `...svc.cluster.local`; the first is also the subject. */
  readonly dnsNames: readonly string[];
  /** e.g. `127.0.0.1` when the API server reaches the webhook by URL on the same machine. */
  readonly ipAddresses?: readonly string[] | undefined;
  readonly now: number;
  readonly validityMs?: number | undefined;
}

/** A new self-signed CA. */
export async function generateCertificateAuthority(options: CertificateAuthorityOptions): Promise<CertificateKeyPair> {
  const x509 = await loadX509();
  const keys = await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serialNumber(),
      name: `CN=${escapeDnValue(options.commonName)}`,
      ...validity(options.now, options.validityMs ?? CA_VALIDITY_MS),
      signingAlgorithm: ALGORITHM,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
          true,
        ),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return { certPem: pemText(certificate.toString('pem')), keyPem: await privateKeyPem(x509, keys.privateKey) };
}

/** A serving certificate for the names, signed by the CA. */
export async function generateServingCertificate(options: ServingCertificateOptions): Promise<CertificateKeyPair> {
  const [subject] = options.dnsNames;
  if (subject === undefined) {
    throw new Error('a serving certificate needs at least one DNS name');
  }
  const x509 = await loadX509();
  const ca = new x509.X509Certificate(x509.PemConverter.decodeFirst(options.ca.certPem));
  const caKey = await crypto.subtle.importKey(
    'pkcs8',
    x509.PemConverter.decodeFirst(options.ca.keyPem),
    ALGORITHM,
    false,
    ['sign'],
  );
  const keys = await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serialNumber(),
      subject: `CN=${escapeDnValue(subject)}`,
      issuer: ca.subject,
      ...validity(options.now, options.validityMs ?? SERVING_VALIDITY_MS),
      signingAlgorithm: ALGORITHM,
      publicKey: keys.publicKey,
      signingKey: caKey,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(alternativeNames(options)),
        await x509.AuthorityKeyIdentifierExtension.create(ca, false, crypto),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return { certPem: pemText(certificate.toString('pem')), keyPem: await privateKeyPem(x509, keys.privateKey) };
}

function alternativeNames(options: ServingCertificateOptions): X509.JsonGeneralNames {
  const ips = options.ipAddresses ?? [];
  const invalid = ips.filter((ip) => isIP(ip) === 0);
  if (invalid.length > 0) {
    throw new Error(`not IP addresses: ${invalid.join(', ')}`);
  }
  return [
    ...options.dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...ips.map((value) => ({ type: 'ip' as const, value })),
  ];
}

/** Backdated for clocks a little behind ours: an hour, or the whole lifetime of a shorter one (tests). */
function backdateMs(validityMs: number): number {
  return Math.min(BACKDATE_MS, validityMs);
}

function validity(now: number, validityMs: number): { notBefore: Date; notAfter: Date } {
  return { notBefore: new Date(now - backdateMs(validityMs)), notAfter: new Date(now + validityMs) };
}

/**
 * When a certificate made here was issued: its notBefore plus the backdate (for a total lifetime T,
 * the backdate was min(1 h, T / 2), since T = 2 × validity below an hour).
 */
export function issuedAt(certPem: string): number {
  const { notBefore, notAfter } = certificateValidity(certPem);
  return notBefore + Math.min(BACKDATE_MS, (notAfter - notBefore) / 2);
}

/** Whether `certPem` was signed by one of the bundle's CAs. */
export function isIssuedByBundle(certPem: string, bundle: string): boolean {
  try {
    const certificate = new X509Certificate(certPem);
    return splitPemCertificates(bundle).some((pem) => {
      const ca = new X509Certificate(pem);
      return certificate.checkIssued(ca) && certificate.verify(ca.publicKey);
    });
  } catch {
    return false;
  }
}

/** 16 random bytes with the top bit clear: a positive serial, as RFC 5280 requires. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return bytes.toString('hex');
}

function escapeDnValue(value: string): string {
  return value.replaceAll(/([,+"\\<>;=])/g, '\\$1');
}

async function privateKeyPem(x509: typeof X509, key: webcrypto.CryptoKey): Promise<string> {
  return pemText(x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY'));
}

/** PEM ending in a newline, so that PEMs can be concatenated into a bundle. */
function pemText(pem: string): string {
  return `${pem.trim()}\n`;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle, each as its own PEM. */
export function splitPemCertificates(bundle: string): string[] {
  return [...bundle.matchAll(PEM_CERTIFICATE)].map((match) => pemText(match[0]));
}

/** When a certificate's validity starts and ends (milliseconds since the epoch). */
export interface Validity {
  readonly notBefore: number;
  readonly notAfter: number;
}

/** The validity of the first certificate of a PEM. */
export function certificateValidity(certPem: string): Validity {
  const certificate = new X509Certificate(certPem);
  return { notBefore: Date.parse(certificate.validFrom), notAfter: Date.parse(certificate.validTo) };
}

/** When a certificate is due for renewal: once less than a third of its lifetime remains. */
export function renewalTime(validity: Validity): number {
  return validity.notBefore + ((validity.notAfter - validity.notBefore) * 2) / 3;
}

/** What a serving certificate has to satisfy to be used (again). */
export interface ServingRequirements {
  readonly ca: CertificateKeyPair;
  readonly dnsNames: readonly string[];
  readonly ipAddresses?: readonly string[] | undefined;
  readonly now: number;
}

/**
 * Whether `serving` can be used now: its key matches, the CA signed it, it names every DNS name and
 * IP address, and it is not due for renewal. Anything unparsable is simply not usable.
 */
export function isServingCertificateUsable(serving: CertificateKeyPair, requirements: ServingRequirements): boolean {
  try {
    const certificate = new X509Certificate(serving.certPem);
    const ca = new X509Certificate(requirements.ca.certPem);
    return (
      certificate.checkPrivateKey(createPrivateKey(serving.keyPem)) &&
      certificate.checkIssued(ca) &&
      certificate.verify(ca.publicKey) &&
      requirements.dnsNames.every((name) => certificate.checkHost(name, { wildcards: false }) === name) &&
      (requirements.ipAddresses ?? []).every((ip) => certificate.checkIP(ip) === ip) &&
      requirements.now < renewalTime(certificateValidity(serving.certPem))
    );
  } catch {
    return false;
  }
}

/** Whether a CA can still sign a full-length serving certificate: its key matches and it outlives one. */
export function isCertificateAuthorityUsable(
  ca: CertificateKeyPair,
  options: { readonly now: number; readonly servingValidityMs: number },
): boolean {
  try {
    const certificate = new X509Certificate(ca.certPem);
    return (
      certificate.ca &&
      certificate.checkPrivateKey(createPrivateKey(ca.keyPem)) &&
      options.now + options.servingValidityMs < Date.parse(certificate.validTo)
    );
  } catch {
    return false;
  }
}
