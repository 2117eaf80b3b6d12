import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import type { Logger } from 'pino';

import { realClock } from '@kruise-ts/controller-runtime';
import type { Clock, TimerHandle } from '@kruise-ts/controller-runtime';
import { ChangeListeners } from './certificate-source.ts';
import type { CertificateSource, ServingCertificate } from './certificate-source.ts';

export interface FileCertificatesOptions {
  /** Holds `tls.crt`, `tls.key` and optionally `ca.crt` (a mounted cert-manager Secret). */
  readonly directory: string;
  readonly logger: Logger;
  /** How often the files are read again (10 s). */
  readonly pollIntervalMs?: number | undefined;
  readonly clock?: Clock | undefined;
  readonly certFile?: string | undefined;
  readonly keyFile?: string | undefined;
  readonly caFile?: string | undefined;
}

const DEFAULT_POLL_MS = 10_000;

/**
 * A certificate that something else issues and renews (cert-manager, a chart), read from files. The
 * files are polled rather than watched: a mounted Secret changes by swapping a symlink, which
 * `fs.watch` reports unreliably, and a read every few seconds costs nothing. A change is used only
 * once the key matches the certificate, so that a half-written rotation is skipped until it is whole.
 */
export class FileCertificates implements CertificateSource {
  readonly #options: FileCertificatesOptions;
  readonly #clock: Clock;
  readonly #listeners = new ChangeListeners<ServingCertificate>();
  #current: ServingCertificate | undefined;
  #timer: TimerHandle | undefined;
  #lastProblem: string | undefined;

  constructor(options: FileCertificatesOptions) {
    this.#options = options;
    this.#clock = options.clock ?? realClock;
  }

  async start(signal: AbortSignal): Promise<void> {
    const first = await this.#read();
    if (typeof first === 'string') {
      throw new Error(`no usable webhook certificate in ${this.#options.directory}: ${first}`);
    }
    this.#use(first);
    signal.addEventListener(
      'abort',
      () => {
        if (this.#timer !== undefined) {
          this.#clock.clearTimeout(this.#timer);
        }
      },
      { once: true },
    );
    this.#schedule(signal);
  }

  current(): ServingCertificate | undefined {
    return this.#current;
  }

  onChange(listener: (certificate: ServingCertificate) => void): () => void {
    return this.#listeners.add(listener);
  }

  #schedule(signal: AbortSignal): void {
    if (signal.aborted) {
      return;
    }
    this.#timer = this.#clock.setTimeout(() => {
      void this.#poll().finally(() => {
        this.#schedule(signal);
      });
    }, this.#options.pollIntervalMs ?? DEFAULT_POLL_MS);
  }

  async #poll(): Promise<void> {
    const next = await this.#read();
    if (typeof next === 'string') {
      // Logged once per distinct problem: a poll every few seconds must not flood the log.
      if (next !== this.#lastProblem) {
        this.#options.logger.warn(
          { directory: this.#options.directory, problem: next },
          'Webhook certificate files are not usable; serving with the previous certificate',
        );
      }
      this.#lastProblem = next;
      return;
    }
    this.#lastProblem = undefined;
    this.#use(next);
  }

  #use(certificate: ServingCertificate): void {
    const current = this.#current;
    if (
      current?.certPem === certificate.certPem &&
      current.keyPem === certificate.keyPem &&
      current.caPem === certificate.caPem
    ) {
      return;
    }
    this.#current = certificate;
    this.#options.logger.info(
      { directory: this.#options.directory, notAfter: new X509Certificate(certificate.certPem).validTo },
      'Using the webhook certificate from files',
    );
    this.#listeners.emit(certificate, (error) => {
      this.#options.logger.error({ err: error }, 'A webhook certificate listener failed');
    });
  }

  /** The certificate in the files, or what is wrong with them. */
  async #read(): Promise<ServingCertificate | string> {
    const file = (name: string): string => path.join(this.#options.directory, name);
    try {
      const [certPem, keyPem, caPem] = await Promise.all([
        readFile(file(this.#options.certFile ?? 'tls.crt'), 'utf8'),
        readFile(file(this.#options.keyFile ?? 'tls.key'), 'utf8'),
        readFile(file(this.#options.caFile ?? 'ca.crt'), 'utf8').catch(() => undefined),
      ]);
      if (!new X509Certificate(certPem).checkPrivateKey(createPrivateKey(keyPem))) {
        return 'the private key does not match the certificate';
      }
      return { certPem, keyPem, caPem: caPem === undefined || caPem.trim() === '' ? undefined : caPem };
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
}
