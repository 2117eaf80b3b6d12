import { isAlreadyExists, isConflict, isNotFound } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import type { ObjectApi } from '@kruise-ts/controller-runtime';
import { defineResource } from '@kruise-ts/controller-runtime';
import type { CertificateStore, StoredCertificates, StoreSnapshot } from './certificate-source.ts';

/** The Secret fields the store reads and writes. */
export interface SecretLike extends KubeObject {
  readonly type?: string;
  /** Base64 values. */
  readonly data?: Readonly<Record<string, string>>;
}

export const secretResource = defineResource<SecretLike>({
  group: '',
  version: 'v1',
  plural: 'secrets',
  kind: 'Secret',
  namespaced: true,
});

/** The keys, as cert-manager and OpenKruise's webhook-certs Secret name them. */
const KEYS = {
  caCertPem: 'ca.crt',
  caKeyPem: 'ca.key',
  certPem: 'tls.crt',
  keyPem: 'tls.key',
} as const satisfies Record<keyof StoredCertificates, string>;

export interface SecretCertificateStoreOptions {
  readonly client: Pick<ObjectApi, 'get' | 'create' | 'update'>;
  readonly namespace: string;
  readonly name: string;
}

/**
 * Keeps self-managed webhook certificates in one Secret, so that every replica serves with the same
 * CA. It needs get, create and update on that Secret only; a Secret created beforehand (e.g. empty,
 * by a chart that grants update by resourceName) is filled in, keeping its other keys and metadata.
 */
export class SecretCertificateStore implements CertificateStore {
  readonly #options: SecretCertificateStoreOptions;
  /** The Secret last read, by resourceVersion: an update writes over it rather than over a blank one. */
  #lastRead: SecretLike | undefined;

  constructor(options: SecretCertificateStoreOptions) {
    this.#options = options;
  }

  async load(signal: AbortSignal): Promise<StoreSnapshot> {
    const { client, namespace, name } = this.#options;
    try {
      const secret = await client.get(secretResource, { namespace, name }, signal);
      this.#lastRead = secret;
      return { certificates: certificatesOf(secret), version: secret.metadata?.resourceVersion };
    } catch (error) {
      if (isNotFound(error)) {
        this.#lastRead = undefined;
        return { certificates: undefined, version: undefined };
      }
      throw error;
    }
  }

  async save(certificates: StoredCertificates, version: string | undefined, signal: AbortSignal): Promise<boolean> {
    const { client, namespace, name } = this.#options;
    const data = encode(certificates);
    try {
      if (version === undefined) {
        await client.create(secretResource, { metadata: { namespace, name }, type: 'Opaque', data }, { signal });
      } else {
        const base =
          this.#lastRead?.metadata?.resourceVersion === version ? this.#lastRead : { metadata: { namespace, name } };
        await client.update(
          secretResource,
          { ...base, metadata: { ...base.metadata, resourceVersion: version }, data: { ...base.data, ...data } },
          { signal },
        );
      }
      return true;
    } catch (error) {
      if (isConflict(error) || isAlreadyExists(error)) {
        return false;
      }
      throw error;
    }
  }
}

function encode(certificates: StoredCertificates): Record<string, string> {
  return Object.fromEntries(
    Object.entries(KEYS).map(([field, key]) => [
      key,
      Buffer.from(certificates[field as keyof StoredCertificates]).toString('base64'),
    ]),
  );
}

function certificatesOf(secret: SecretLike): StoredCertificates | undefined {
  const text = (key: string): string | undefined => {
    const value = secret.data?.[key];
    return value === undefined || value === '' ? undefined : Buffer.from(value, 'base64').toString('utf8');
  };
  const caCertPem = text(KEYS.caCertPem);
  const caKeyPem = text(KEYS.caKeyPem);
  const certPem = text(KEYS.certPem);
  const keyPem = text(KEYS.keyPem);
  if (caCertPem === undefined || caKeyPem === undefined || certPem === undefined || keyPem === undefined) {
    return undefined;
  }
  return { caCertPem, caKeyPem, certPem, keyPem };
}
