import { X509Certificate } from 'node:crypto';

import type { Logger } from 'pino';

import { Backoff } from '@kruise-ts/controller-runtime';
import type { BackoffOptions } from '@kruise-ts/controller-runtime';
import { realClock } from '@kruise-ts/controller-runtime';
import type { Clock, TimerHandle } from '@kruise-ts/controller-runtime';
import { ChangeListeners } from './certificate-source.ts';
import type {
  CertificateSource,
  CertificateStore,
  ServingCertificate,
  StoredCertificates,
  StoreSnapshot,
} from './certificate-source.ts';
import {
  CA_VALIDITY_MS,
  certificateValidity,
  generateCertificateAuthority,
  generateServingCertificate,
  isCertificateAuthorityUsable,
  isIssuedByBundle,
  isServingCertificateUsable,
  issuedAt,
  renewalTime,
  SERVING_VALIDITY_MS,
  splitPemCertificates,
} from './certificates.ts';

export interface SelfManagedCertificatesOptions {
  /** The names the API server uses: `<service>.<namespace>.svc` (and `.svc.cluster.local`). */
  readonly dnsNames: readonly string[];
  readonly ipAddresses?: readonly string[] | undefined;
  /** Where replicas share the CA and serving certificate (a Secret); in memory only when absent. */
  readonly store?: CertificateStore | undefined;
  readonly logger: Logger;
  readonly clock?: Clock | undefined;
  readonly caCommonName?: string | undefined;
  readonly caValidityMs?: number | undefined;
  readonly servingValidityMs?: number | undefined;
  /**
   * How long a new CA is only trusted (in the CA bundle the injector writes into the webhook
   * configurations) before serving certificates are signed with it (2 minutes): the API server must
   * know a CA before a webhook presents a certificate of it, or admissions fail in between.
   */
  readonly caPropagationMs?: number | undefined;
  /** How often the store is read again, to adopt what another replica wrote (1 hour). */
  readonly resyncIntervalMs?: number | undefined;
  /** Between failed renewals (the certificate in use stays valid for a third of its lifetime). */
  readonly retryBackoff?: BackoffOptions | undefined;
}

/** Node's timers overflow past 2^31 - 1 ms (and fire at once): longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const DEFAULT_RESYNC_MS = 60 * 60 * 1000;
const DEFAULT_CA_PROPAGATION_MS = 2 * 60 * 1000;
/** Writers racing on the store: each lost race reads the winner's certificates, which are then fresh. */
const MAX_SAVE_ATTEMPTS = 5;

interface Plan {
  readonly certificates: StoredCertificates;
  /** What was generated: nothing (the stored ones are fine), a serving certificate, or a CA and one. */
  readonly generated: 'nothing' | 'serving' | 'ca';
}

/**
 * Certificates the app makes and renews itself, as OpenKruise's webhook controller does: a CA (10
 * years) and a serving certificate (1 year) for the given names, renewed when less than a third of
 * its lifetime remains, at the latest `resyncIntervalMs` after the store was last read. With a
 * store, every replica uses the one stored CA and serving certificate; a replica that loses a write
 * race adopts the winner's. A new CA is made only when the old one cannot outlive a new serving
 * certificate; the CA bundle then also holds the old CA while it is valid, so that replicas still
 * serving with a certificate of the old CA are trusted until they pick up the new one.
 */
export class SelfManagedCertificates implements CertificateSource {
  readonly #options: SelfManagedCertificatesOptions;
  readonly #clock: Clock;
  readonly #listeners = new ChangeListeners<ServingCertificate>();
  readonly #backoff: Backoff;
  #stored: StoredCertificates | undefined;
  #current: ServingCertificate | undefined;
  #timer: TimerHandle | undefined;

  constructor(options: SelfManagedCertificatesOptions) {
    if (options.dnsNames.length === 0) {
      throw new Error('SelfManagedCertificates needs at least one DNS name');
    }
    this.#options = options;
    this.#clock = options.clock ?? realClock;
    this.#backoff = new Backoff(options.retryBackoff ?? { initialMs: 1000, maxMs: 5 * 60_000 });
  }

  async start(signal: AbortSignal): Promise<void> {
    await this.#reconcile(signal);
    signal.addEventListener(
      'abort',
      () => {
        this.#clearTimer();
      },
      { once: true },
    );
    this.#schedule(signal);
  }

  current(): ServingCertificate | undefined {
    return this.#current;
  }

  /** The PEM bundle of the CA(s) clients must trust; undefined before `start` resolved. */
  caBundle(): string | undefined {
    return this.#current?.caPem;
  }

  onChange(listener: (certificate: ServingCertificate) => void): () => void {
    return this.#listeners.add(listener);
  }

  /** Reads the store, renews what is due, writes it back, and uses the result. */
  async #reconcile(signal: AbortSignal): Promise<void> {
    for (let attempt = 1; attempt <= MAX_SAVE_ATTEMPTS; attempt++) {
      const snapshot = await this.#load(signal);
      const plan = await this.#plan(snapshot.certificates);
      if (await this.#save(plan, snapshot, signal)) {
        this.#use(plan);
        return;
      }
      this.#options.logger.debug({ attempt }, 'Another replica stored webhook certificates first; adopting them');
    }
    throw new Error(
      `could not store the webhook certificates: other writers replaced them ${String(MAX_SAVE_ATTEMPTS)} times in a row`,
    );
  }

  async #load(signal: AbortSignal): Promise<StoreSnapshot> {
    return this.#options.store === undefined
      ? { certificates: this.#stored, version: undefined }
      : this.#options.store.load(signal);
  }

  async #save(plan: Plan, snapshot: StoreSnapshot, signal: AbortSignal): Promise<boolean> {
    if (plan.generated === 'nothing' || this.#options.store === undefined) {
      return true;
    }
    return this.#options.store.save(plan.certificates, snapshot.version, signal);
  }

  async #plan(stored: StoredCertificates | undefined): Promise<Plan> {
    const now = this.#clock.now();
    const servingValidityMs = this.#options.servingValidityMs ?? SERVING_VALIDITY_MS;
    if (
      stored === undefined ||
      !isCertificateAuthorityUsable({ certPem: stored.caCertPem, keyPem: stored.caKeyPem }, { now, servingValidityMs })
    ) {
      return this.#planNewCa(stored, now);
    }
    const ca = { certPem: stored.caCertPem, keyPem: stored.caKeyPem };
    const requirements = { ca, dnsNames: this.#options.dnsNames, ipAddresses: this.#options.ipAddresses, now };
    if (
      isServingCertificateUsable({ certPem: stored.certPem, keyPem: stored.keyPem }, requirements) ||
      this.#caPropagating(stored, now)
    ) {
      return { certificates: stored, generated: 'nothing' };
    }
    return { certificates: { ...stored, ...(await this.#generateServing(ca, now)) }, generated: 'serving' };
  }

  /** A new CA, first in the bundle with the old ones still valid; the old CA's certificate serves until the API server knows the new one. */
  async #planNewCa(stored: StoredCertificates | undefined, now: number): Promise<Plan> {
    const ca = await generateCertificateAuthority({
      commonName: this.#options.caCommonName ?? 'kruise-ts-webhook-ca',
      now,
      validityMs: this.#options.caValidityMs ?? CA_VALIDITY_MS,
    });
    const bundle = [ca.certPem, ...stillValid(stored?.caCertPem ?? '', now)].join('');
    const serving =
      stored !== undefined && this.#canServeWhileCaPropagates(stored, now)
        ? { certPem: stored.certPem, keyPem: stored.keyPem }
        : await this.#generateServing(ca, now);
    return { certificates: { caCertPem: bundle, caKeyPem: ca.keyPem, ...serving }, generated: 'ca' };
  }

  #caPropagationMs(): number {
    return this.#options.caPropagationMs ?? DEFAULT_CA_PROPAGATION_MS;
  }

  /** The stored serving certificate (of a CA in the bundle) outlives the propagation of a new CA with room to spare. */
  #canServeWhileCaPropagates(stored: StoredCertificates, now: number): boolean {
    return (
      isIssuedByBundle(stored.certPem, stored.caCertPem) &&
      certificateValidity(stored.certPem).notAfter > now + 2 * this.#caPropagationMs()
    );
  }

  /** A new signing CA is still on its way to the API server, and the certificate of an older one in the bundle is valid. */
  #caPropagating(stored: StoredCertificates, now: number): boolean {
    const signing = splitPemCertificates(stored.caCertPem)[0] ?? '';
    if (signing === '' || isIssuedByBundle(stored.certPem, signing)) {
      return false;
    }
    return (
      now < issuedAt(signing) + this.#caPropagationMs() &&
      now < certificateValidity(stored.certPem).notAfter &&
      isIssuedByBundle(stored.certPem, stored.caCertPem)
    );
  }

  /** When the current certificate is next due: its renewal, or the end of a new CA's propagation. */
  #nextCheck(current: ServingCertificate): number {
    const signing = splitPemCertificates(current.caPem ?? '')[0] ?? '';
    if (signing !== '' && !isIssuedByBundle(current.certPem, signing)) {
      return issuedAt(signing) + this.#caPropagationMs();
    }
    return renewalTime(certificateValidity(current.certPem));
  }

  #generateServing(ca: { certPem: string; keyPem: string }, now: number): Promise<{ certPem: string; keyPem: string }> {
    const { dnsNames, ipAddresses, servingValidityMs } = this.#options;
    return generateServingCertificate({
      ca,
      dnsNames,
      ipAddresses,
      now,
      validityMs: servingValidityMs ?? SERVING_VALIDITY_MS,
    });
  }

  #use(plan: Plan): void {
    const { certificates } = plan;
    this.#stored = certificates;
    if (this.#current?.certPem === certificates.certPem && this.#current.caPem === certificates.caCertPem) {
      return;
    }
    this.#current = { certPem: certificates.certPem, keyPem: certificates.keyPem, caPem: certificates.caCertPem };
    const validity = certificateValidity(certificates.certPem);
    this.#options.logger.info(
      {
        generated: plan.generated,
        notAfter: new Date(validity.notAfter).toISOString(),
        renewAt: new Date(renewalTime(validity)).toISOString(),
      },
      'Using a new webhook serving certificate',
    );
    this.#listeners.emit(this.#current, (error) => {
      this.#options.logger.error({ err: error }, 'A webhook certificate listener failed');
    });
  }

  #schedule(signal: AbortSignal, delayMs?: number): void {
    if (signal.aborted || this.#current === undefined) {
      return;
    }
    const untilRenewal = this.#nextCheck(this.#current) - this.#clock.now();
    const delay = delayMs ?? Math.min(Math.max(0, untilRenewal), this.#options.resyncIntervalMs ?? DEFAULT_RESYNC_MS);
    this.#clearTimer();
    this.#timer = this.#clock.setTimeout(
      () => {
        void this.#tick(signal);
      },
      Math.min(delay, MAX_TIMER_MS),
    );
  }

  async #tick(signal: AbortSignal): Promise<void> {
    try {
      await this.#reconcile(signal);
      this.#backoff.reset();
      this.#schedule(signal);
    } catch (error) {
      if (signal.aborted) {
        return;
      }
      const retryMs = this.#backoff.next();
      this.#options.logger.warn(
        { err: error, retryMs },
        'Renewing the webhook certificates failed; serving with the current ones and retrying',
      );
      this.#schedule(signal, retryMs);
    }
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }
}

/** The certificates of a bundle that have not expired at `now`. */
function stillValid(bundle: string, now: number): string[] {
  return splitPemCertificates(bundle).filter((pem) => {
    try {
      return Date.parse(new X509Certificate(pem).validTo) > now;
    } catch {
      return false;
    }
  });
}
