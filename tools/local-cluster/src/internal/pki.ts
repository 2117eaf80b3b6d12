import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { runCommand } from './run-command.ts';

const OPENSSL_MISSING_HINT = 'openssl is not on PATH; install it (Debian: apt-get install openssl)';
const VALID_DAYS = '3650';

/** Files of a certificate authority on disk. */
export interface CertificateAuthority {
  readonly certFile: string;
  readonly keyFile: string;
}

/** A serving certificate signed by a CertificateAuthority. */
export interface ServingCertificate {
  readonly certFile: string;
  readonly keyFile: string;
  /** PEM of the signing CA, for kubeconfigs and webhook `caBundle`s. */
  readonly caPem: string;
}

/** Everything the control plane needs for TLS, service-account tokens and the admin identity. */
export interface ClusterPki {
  readonly ca: CertificateAuthority;
  readonly caPem: string;
  readonly apiServer: ServingCertificate;
  /** EC private key that signs service-account tokens. */
  readonly serviceAccountKeyFile: string;
  /** Its public key, with which the apiserver verifies them. */
  readonly serviceAccountPublicKeyFile: string;
  /** Static token file (`token,user,uid,"groups"`) holding the admin identity. */
  readonly tokenFile: string;
  readonly adminToken: string;
}

/**
 * Creates a fresh CA, the apiserver's serving certificate (valid for 127.0.0.1 and the in-cluster
 * names), a service-account signing key and an admin token. EC P-256 keys keep this under a second.
 */
export async function createClusterPki(dir: string): Promise<ClusterPki> {
  await mkdir(dir, { recursive: true });
  const ca = await createCertificateAuthority(dir, 'kruise-ts-local-ca');
  const apiServer = await createServingCertificate({
    ca,
    dir,
    name: 'apiserver',
    commonName: 'kube-apiserver',
    hosts: ['127.0.0.1', 'localhost', '10.96.0.1', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
  });
  const serviceAccountKeyFile = path.join(dir, 'service-account.key');
  await generateKey(serviceAccountKeyFile, dir);
  const serviceAccountPublicKeyFile = path.join(dir, 'service-account.pub');
  await openssl(dir, ['pkey', '-in', serviceAccountKeyFile, '-pubout', '-out', serviceAccountPublicKeyFile]);
  const adminToken = randomBytes(24).toString('hex');
  const tokenFile = path.join(dir, 'tokens.csv');
  await writeFile(tokenFile, `${adminToken},kruise-ts-admin,kruise-ts-admin,"system:masters"\n`, { mode: 0o600 });
  return {
    ca,
    caPem: apiServer.caPem,
    apiServer,
    serviceAccountKeyFile,
    serviceAccountPublicKeyFile,
    tokenFile,
    adminToken,
  };
}

/** Creates a self-signed CA in `dir` (`<name>.crt`, `<name>.key`). */
export async function createCertificateAuthority(dir: string, commonName: string): Promise<CertificateAuthority> {
  const keyFile = path.join(dir, 'ca.key');
  const certFile = path.join(dir, 'ca.crt');
  const config = path.join(dir, 'ca.cnf');
  await writeFile(
    config,
    [
      '[req]',
      'distinguished_name = dn',
      'prompt = no',
      '[dn]',
      `CN = ${commonName}`,
      '[v3_ca]',
      'basicConstraints = critical,CA:TRUE',
      'keyUsage = critical,keyCertSign,cRLSign,digitalSignature',
      'subjectKeyIdentifier = hash',
      '',
    ].join('\n'),
  );
  await generateKey(keyFile, dir);
  await openssl(dir, [
    'req',
    '-x509',
    '-new',
    '-key',
    keyFile,
    '-config',
    config,
    '-extensions',
    'v3_ca',
    '-days',
    VALID_DAYS,
    '-out',
    certFile,
  ]);
  return { certFile, keyFile };
}

export interface ServingCertificateRequest {
  readonly ca: CertificateAuthority;
  readonly dir: string;
  /** File name stem: `<name>.crt`, `<name>.key`. */
  readonly name: string;
  readonly commonName: string;
  /** IP addresses and DNS names the certificate is valid for. */
  readonly hosts: readonly string[];
}

/**
 * Issues a serving certificate with the hosts as subject alternative names. Node's TLS client
 * ignores the common name, so webhook servers on 127.0.0.1 need the IP SAN this adds.
 */
export async function createServingCertificate(request: ServingCertificateRequest): Promise<ServingCertificate> {
  const { dir, name } = request;
  await mkdir(dir, { recursive: true });
  const keyFile = path.join(dir, `${name}.key`);
  const certFile = path.join(dir, `${name}.crt`);
  const csrFile = path.join(dir, `${name}.csr`);
  const extFile = path.join(dir, `${name}.ext`);
  const requestConfig = path.join(dir, `${name}.cnf`);
  await writeFile(
    requestConfig,
    ['[req]', 'distinguished_name = dn', 'prompt = no', '[dn]', `CN = ${request.commonName}`, ''].join('\n'),
  );
  await writeFile(
    extFile,
    [
      'basicConstraints = CA:FALSE',
      'keyUsage = critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage = serverAuth,clientAuth',
      `subjectAltName = ${request.hosts.map(subjectAltName).join(',')}`,
      '',
    ].join('\n'),
  );
  await generateKey(keyFile, dir);
  await openssl(dir, ['req', '-new', '-key', keyFile, '-config', requestConfig, '-out', csrFile]);
  const serial = `0x${randomBytes(12).toString('hex')}`;
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    csrFile,
    '-CA',
    request.ca.certFile,
    '-CAkey',
    request.ca.keyFile,
    '-set_serial',
    serial,
    '-days',
    VALID_DAYS,
    '-extfile',
    extFile,
    '-out',
    certFile,
  ]);
  return { certFile, keyFile, caPem: await readFile(request.ca.certFile, 'utf8') };
}

function subjectAltName(host: string): string {
  return /^[\d.]+$/.test(host) || host.includes(':') ? `IP:${host}` : `DNS:${host}`;
}

async function generateKey(keyFile: string, dir: string): Promise<void> {
  await openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', keyFile]);
}

async function openssl(dir: string, args: string[]): Promise<void> {
  await runCommand({
    component: 'openssl',
    command: 'openssl',
    args,
    cwd: dir,
    logFile: path.join(dir, 'openssl.log'),
    timeoutMs: 30_000,
    missingHint: OPENSSL_MISSING_HINT,
  });
}
