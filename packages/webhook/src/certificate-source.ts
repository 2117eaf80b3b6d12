/** Where the webhook server's certificate comes from, and where self-managed ones are kept. */

/** What the server presents (and, when known, the CA that clients need to trust it), PEM. */
export interface ServingCertificate {
  readonly certPem: string;
  readonly keyPem: string;
  /** The CA bundle to put into webhook configurations; undefined when the source does not know it. */
  readonly caPem: string | undefined;
}

/**
 * Produces the serving certificate and keeps it current. The server starts it and installs every
 * certificate it announces for the following TLS handshakes, so that rotation needs no restart.
 */
export interface CertificateSource {
  /**
   * Resolves once the first certificate is available (rejects when none can be had), then keeps the
   * certificate current in the background until `signal` aborts.
   */
  start(signal: AbortSignal): Promise<void>;
  /** The certificate in use; undefined before `start` resolved. */
  current(): ServingCertificate | undefined;
  /** Called with each new certificate, the first included; returns the unsubscribe function. */
  onChange(listener: (certificate: ServingCertificate) => void): () => void;
}

/** Certificates as a store keeps them (the keys of the Secret: ca.crt, ca.key, tls.crt, tls.key). */
export interface StoredCertificates {
  readonly caCertPem: string;
  readonly caKeyPem: string;
  readonly certPem: string;
  readonly keyPem: string;
}

/** What a store holds and the version to write against; `certificates` is undefined when incomplete. */
export interface StoreSnapshot {
  readonly certificates: StoredCertificates | undefined;
  /** Opaque; undefined when nothing is stored yet. */
  readonly version: string | undefined;
}

/**
 * Keeps self-managed certificates where every replica finds them, so that all replicas share one CA
 * (the one in the webhook configurations' caBundle). Writes are optimistic: a `save` against a
 * version someone else has replaced returns false, and the caller reads again and adopts theirs.
 */
export interface CertificateStore {
  load(signal: AbortSignal): Promise<StoreSnapshot>;
  /** Writes over `version` (creates when undefined); false when another writer was first. */
  save(certificates: StoredCertificates, version: string | undefined, signal: AbortSignal): Promise<boolean>;
}

/** The listeners of a source; a throwing listener does not keep the others from hearing. */
export class ChangeListeners<T> {
  readonly #listeners = new Set<(value: T) => void>();

  add(listener: (value: T) => void): () => void {
    // A wrapper per subscription, so that subscribing one function twice gives two subscriptions.
    const entry = (value: T): void => {
      listener(value);
    };
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  emit(value: T, onError: (error: unknown) => void): void {
    for (const listener of this.#listeners) {
      try {
        listener(value);
      } catch (error) {
        onError(error);
      }
    }
  }
}
