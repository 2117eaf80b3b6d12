/**
 * A certificate source the webhook unit tests of this package drive by hand (not exported: the apps'
 * tests serve real certificates).
 */
import { ChangeListeners } from '../certificate-source.ts';
import type { CertificateSource, ServingCertificate } from '../certificate-source.ts';

/** Serves the CA it is made with (none when undefined) until `rotate` swaps it and tells the listeners. */
export class StubCertificates implements Pick<CertificateSource, 'current' | 'onChange'> {
  readonly #listeners = new ChangeListeners<ServingCertificate>();
  #current: ServingCertificate | undefined;

  constructor(caPem: string | undefined) {
    this.#current = caPem === undefined ? undefined : { certPem: 'c', keyPem: 'k', caPem };
  }

  current(): ServingCertificate | undefined {
    return this.#current;
  }

  onChange(listener: (certificate: ServingCertificate) => void): () => void {
    return this.#listeners.add(listener);
  }

  rotate(caPem: string): void {
    this.#current = { certPem: 'c2', keyPem: 'k2', caPem };
    this.#listeners.emit(this.#current, () => undefined);
  }
}
