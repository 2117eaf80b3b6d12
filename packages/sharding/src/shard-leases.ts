/**
 * The ring's Leases (docs/sharding.md): one member Lease per replica, renewed, and one bucket Lease
 * per bucket, whose holder is the bucket's owner and which changes only by conditional writes. Names,
 * and the writes a member makes.
 */
import { createHash } from 'node:crypto';

import { isConflict, isNotFound, leaseResource, microTime } from '@kruise-ts/controller-runtime';
import type { LeaseLike, Reader, Writer } from '@kruise-ts/controller-runtime';

import { SHARD_RING_LABEL } from './bucket.ts';

/** Where a ring's Leases live: its name (the app's leader Lease name) and namespace. */
export interface RingRef {
  readonly ring: string;
  readonly namespace: string;
}

/** A member's Lease name: the identity is `<hostname>_<uuid>`, too long and not a DNS name, so a digest of it. */
export function memberLeaseName(ring: string, identity: string): string {
  return `${ring}-member-${createHash('sha256').update(identity).digest('hex').slice(0, 10)}`;
}

export function bucketLeaseName(ring: string, bucket: number): string {
  return `${ring}-bucket-${String(bucket).padStart(2, '0')}`;
}

/** The bucket a Lease name stands for, or undefined for a member Lease or another name. */
export function bucketOfLeaseName(ring: string, name: string): number | undefined {
  const prefix = `${ring}-bucket-`;
  if (!name.startsWith(prefix)) {
    return undefined;
  }
  const rest = name.slice(prefix.length);
  return /^\d{2,}$/.test(rest) ? Number(rest) : undefined;
}

export function isMemberLeaseName(ring: string, name: string): boolean {
  return name.startsWith(`${ring}-member-`);
}

/** The Lease calls a ring member makes: on a client of its own, with its own rate limit. */
export type LeaseApi = Pick<Reader, 'get'> & Pick<Writer, 'create' | 'update' | 'delete'>;

function ringMetadata(ref: RingRef, name: string): NonNullable<LeaseLike['metadata']> {
  return { name, namespace: ref.namespace, labels: { [SHARD_RING_LABEL]: ref.ring } };
}

/**
 * Creates or renews this member's Lease. `current` is the version last written or read (undefined at
 * first); a conflict or a missing Lease is resolved by reading it again once.
 */
export async function renewMemberLease(
  api: LeaseApi,
  input: RingRef & {
    identity: string;
    leaseDurationMs: number;
    current: LeaseLike | undefined;
    now: number;
    signal: AbortSignal;
  },
): Promise<LeaseLike> {
  const name = memberLeaseName(input.ring, input.identity);
  const spec = {
    holderIdentity: input.identity,
    leaseDurationSeconds: Math.ceil(input.leaseDurationMs / 1000),
    renewTime: microTime(input.now),
  };
  const current =
    input.current ??
    (await api.get(leaseResource, { namespace: input.namespace, name }, input.signal).catch(orUndefinedIfNotFound));
  if (current === undefined) {
    return api.create(
      leaseResource,
      { metadata: ringMetadata(input, name), spec: { ...spec, acquireTime: spec.renewTime } },
      { signal: input.signal },
    );
  }
  return api.update(leaseResource, { ...current, spec: { ...current.spec, ...spec } }, { signal: input.signal });
}

/**
 * Writes this member as a bucket's holder: creates the Lease, or updates it on condition of the
 * version read (the API server refuses the write if anyone changed it since: exactly one member wins).
 */
export async function claimBucketLease(
  api: LeaseApi,
  input: RingRef & {
    identity: string;
    bucket: number;
    leaseDurationMs: number;
    lease: LeaseLike | undefined;
    now: number;
    signal: AbortSignal;
  },
): Promise<LeaseLike> {
  const now = microTime(input.now);
  const spec = {
    holderIdentity: input.identity,
    acquireTime: now,
    renewTime: now,
    leaseDurationSeconds: Math.ceil(input.leaseDurationMs / 1000),
  };
  if (input.lease === undefined) {
    return api.create(
      leaseResource,
      {
        metadata: ringMetadata(input, bucketLeaseName(input.ring, input.bucket)),
        spec: { ...spec, leaseTransitions: 0 },
      },
      { signal: input.signal },
    );
  }
  const transitions =
    (input.lease.spec?.leaseTransitions ?? 0) + (input.lease.spec?.holderIdentity === input.identity ? 0 : 1);
  return api.update(
    leaseResource,
    { ...input.lease, spec: { ...input.lease.spec, ...spec, leaseTransitions: transitions } },
    { signal: input.signal },
  );
}

/** A Lease as the API server has it now (a quorum read, not the cache); undefined when there is none. */
export async function readLease(
  api: LeaseApi,
  input: { namespace: string; name: string; signal: AbortSignal },
): Promise<LeaseLike | undefined> {
  return api
    .get(leaseResource, { namespace: input.namespace, name: input.name }, input.signal)
    .catch(orUndefinedIfNotFound);
}

/** How a release ended: done, or the bucket is another member's (nothing written), or try again with `lease`. */
export type ReleaseOutcome =
  | { readonly kind: 'released' }
  | { readonly kind: 'lost'; readonly holder: string }
  | { readonly kind: 'retry'; readonly lease: LeaseLike; readonly error: unknown };

/**
 * Empties the holder of a bucket Lease this member holds, by compare-and-swap on `lease`, the copy
 * this member wrote. On a conflict it reads the Lease from the API server: empty (an earlier attempt
 * committed though its answer was lost) is done; another holder means the bucket was taken, and
 * nothing is written; this member still as holder is retried on that copy, which can only empty this
 * member's own hold. Any other failure is retried on the copy this member wrote.
 */
export async function releaseHeldBucket(
  api: LeaseApi,
  input: { lease: LeaseLike; identity: string; now: number; signal: AbortSignal },
): Promise<ReleaseOutcome> {
  try {
    await releaseBucketLease(api, input);
    return { kind: 'released' };
  } catch (error) {
    if (!isConflict(error)) {
      return { kind: 'retry', lease: input.lease, error };
    }
    const { namespace = '', name = '' } = input.lease.metadata ?? {};
    return afterConflict(await readLease(api, { namespace, name, signal: input.signal }), {
      identity: input.identity,
      error,
    });
  }
}

function afterConflict(live: LeaseLike | undefined, input: { identity: string; error: unknown }): ReleaseOutcome {
  const holder = live?.spec?.holderIdentity ?? '';
  if (live === undefined || holder === '') {
    return { kind: 'released' };
  }
  return holder === input.identity ? { kind: 'retry', lease: live, error: input.error } : { kind: 'lost', holder };
}

/** Empties a bucket Lease's holder, on condition of the version this member holds. */
export async function releaseBucketLease(
  api: LeaseApi,
  input: { lease: LeaseLike; now: number; signal: AbortSignal },
): Promise<LeaseLike> {
  return api.update(
    leaseResource,
    { ...input.lease, spec: { ...input.lease.spec, holderIdentity: '', renewTime: microTime(input.now) } },
    { signal: input.signal },
  );
}

/** Deletes a member Lease on condition of its version, so that a member that renewed meanwhile keeps it. */
export async function deleteMemberLease(
  api: LeaseApi,
  input: { lease: LeaseLike; signal: AbortSignal },
): Promise<void> {
  const { name = '', namespace = '', resourceVersion } = input.lease.metadata ?? {};
  await api
    .delete(
      leaseResource,
      { namespace, name },
      { signal: input.signal, ...(resourceVersion === undefined ? {} : { preconditions: { resourceVersion } }) },
    )
    .catch((error: unknown) => {
      if (!isNotFound(error)) {
        throw error;
      }
    });
}

function orUndefinedIfNotFound(error: unknown): undefined {
  if (isNotFound(error)) {
    return undefined;
  }
  throw error;
}
