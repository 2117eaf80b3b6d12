import { setTimeout as sleep } from 'node:timers/promises';

import type { Logger } from 'pino';

import { isAlreadyExists, isConflict, isNotFound } from '../client/api-error.ts';
import type { Client } from '../client/client.ts';
import { defineResource } from '../client/resource-type.ts';
import { isAborted } from '../util/aborted.ts';
import { decideLease, microTime } from './lease-decision.ts';
import type { LeaseLike, LeaseTiming } from './lease-decision.ts';

/** coordination.k8s.io/v1 Lease. */
export const leaseResource = defineResource<LeaseLike>({
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
  kind: 'Lease',
  namespaced: true,
});

export interface LeaderElectorOptions extends LeaseTiming {
  readonly client: Client;
  readonly namespace: string;
  /** The Lease's name: one per app (`kruise-ts-cloneset`, ...). */
  readonly name: string;
  /** Unique per process, e.g. `<hostname>_<uuid>`. */
  readonly identity: string;
  readonly logger: Logger;
  /** Give the lease up on shutdown so that a standby takes over at once instead of after it expires. */
  readonly releaseOnShutdown?: boolean | undefined;
  /** Called with true when this process becomes leader and false when it stops being it. */
  readonly onLeadershipChange?: ((leading: boolean) => void) | undefined;
}

/** Why `run` returned. */
export type ElectionEnd = 'shutdown' | 'lost';

/**
 * Lease-based leader election with client-go's semantics: a candidate takes the lease only when the
 * holder has not renewed it for `leaseDurationMs` as observed on the candidate's own clock (so clock
 * skew between machines does not matter); the leader renews every `retryPeriodMs` and gives up when
 * it could not renew for `renewDeadlineMs`. Every write uses the lease's resourceVersion, so two
 * candidates can never both win.
 */
export class LeaderElector {
  readonly #options: LeaderElectorOptions;
  #observed: { record: string; at: number } | undefined;

  constructor(options: LeaderElectorOptions) {
    this.#options = options;
  }

  /**
   * Acquires the lease (waiting as long as needed), runs `lead` with a signal that aborts when the
   * lease is lost or on shutdown, keeps renewing meanwhile, and returns why it ended.
   */
  async run(signal: AbortSignal, lead: (leading: AbortSignal) => Promise<void>): Promise<ElectionEnd> {
    if (!(await this.#acquire(signal))) {
      return 'shutdown';
    }
    this.#options.logger.info(
      { lease: this.#leaseName(), identity: this.#options.identity },
      'Acquired the leader lease',
    );
    this.#options.onLeadershipChange?.(true);
    const leadership = new AbortController();
    const leading = lead(AbortSignal.any([signal, leadership.signal]));
    const end = await this.#renewUntilLost(signal);
    leadership.abort();
    await leading.catch((error: unknown) => {
      this.#options.logger.error({ err: error }, 'Leader work failed');
    });
    this.#options.onLeadershipChange?.(false);
    if (end === 'shutdown' && this.#options.releaseOnShutdown !== false) {
      await this.#release();
    }
    return end;
  }

  async #acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew(signal)) {
        return true;
      }
      await sleep(jittered(this.#options.retryPeriodMs), undefined, { signal }).catch(() => undefined);
    }
    return false;
  }

  async #renewUntilLost(signal: AbortSignal): Promise<ElectionEnd> {
    // Monotonic: a wall-clock step must neither end nor prolong a leadership.
    let lastRenew = performance.now();
    while (!signal.aborted) {
      await sleep(this.#options.retryPeriodMs, undefined, { signal }).catch(() => undefined);
      if (isAborted(signal)) {
        return 'shutdown';
      }
      if (
        await this.#tryAcquireOrRenew(AbortSignal.any([signal, AbortSignal.timeout(this.#options.renewDeadlineMs)]))
      ) {
        lastRenew = performance.now();
      } else if (performance.now() - lastRenew >= this.#options.renewDeadlineMs) {
        this.#options.logger.error(
          { lease: this.#leaseName() },
          'Failed to renew the leader lease before the renew deadline; leadership lost',
        );
        return 'lost';
      }
    }
    return 'shutdown';
  }

  async #tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const { client, namespace, name } = this.#options;
    try {
      const current = await client.get(leaseResource, { namespace, name }, signal).catch((error: unknown) => {
        if (isNotFound(error)) {
          return undefined;
        }
        throw error;
      });
      // Another holder's age on the monotonic clock (client-go's rule); wall time only goes into the Lease.
      const now = performance.now();
      this.#observe(current, now);
      const decision = decideLease({
        current,
        identity: this.#options.identity,
        now,
        wallNow: Date.now(),
        observedAt: this.#observed?.at ?? now,
        timing: this.#options,
      });
      if (decision.kind === 'wait') {
        return false;
      }
      const written =
        current === undefined
          ? await client.create(leaseResource, { metadata: { name, namespace }, spec: decision.spec }, { signal })
          : await client.update(leaseResource, { ...current, spec: decision.spec }, { signal });
      this.#observe(written, now);
      return true;
    } catch (error) {
      this.#logAttemptFailure(error);
      return false;
    }
  }

  #logAttemptFailure(error: unknown): void {
    const expected = isConflict(error) || isAlreadyExists(error);
    this.#options.logger[expected ? 'debug' : 'warn'](
      { err: error, lease: this.#leaseName() },
      'Could not acquire or renew the leader lease',
    );
  }

  #observe(lease: LeaseLike | undefined, now: number): void {
    const record = JSON.stringify(lease?.spec ?? null);
    if (this.#observed?.record !== record) {
      this.#observed = { record, at: now };
    }
  }

  async #release(): Promise<void> {
    const { client, namespace, name } = this.#options;
    try {
      const current = await client.get(leaseResource, { namespace, name }, AbortSignal.timeout(5000));
      if (current.spec?.holderIdentity !== this.#options.identity) {
        return;
      }
      const now = microTime(Date.now());
      await client.update(
        leaseResource,
        {
          ...current,
          spec: { ...current.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now },
        },
        { signal: AbortSignal.timeout(5000) },
      );
      this.#options.logger.info({ lease: this.#leaseName() }, 'Released the leader lease');
    } catch (error) {
      this.#options.logger.warn({ err: error, lease: this.#leaseName() }, 'Could not release the leader lease');
    }
  }

  #leaseName(): string {
    return `${this.#options.namespace}/${this.#options.name}`;
  }
}

/** client-go waits retryPeriod × [1, 1.2) between attempts so that candidates spread out. */
function jittered(ms: number): number {
  return ms * (1 + 0.2 * Math.random());
}
