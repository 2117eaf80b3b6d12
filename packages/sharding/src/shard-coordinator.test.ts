import { afterEach, describe, expect, it, vi } from 'vitest';

import { createLogger, leaseResource } from '@kruise-ts/controller-runtime';
import type { KubeObject, LeaseLike, ResourceType, WriteOptions } from '@kruise-ts/controller-runtime';
import { FakeClient, FakeClock } from '@kruise-ts/controller-runtime/testing';

import { BucketGate } from './bucket-gate.ts';
import { FencedError } from './member-fence.ts';
import { assignBuckets, bucketsOf } from './ring.ts';
import type { RingLeases } from './ring-leases.ts';
import { ShardCoordinator } from './shard-coordinator.ts';
import { bucketLeaseName, memberLeaseName } from './shard-leases.ts';
import type { LeaseApi } from './shard-leases.ts';

const RING = 'ring';
const NAMESPACE = 'kruise-system';
const BUCKETS = 8;
const STEP_MS = 250;

type WriteHook = (lease: LeaseLike, options: WriteOptions | undefined) => Promise<LeaseLike> | undefined;

/** The API server (a FakeClient), the coordinator's cache of the ring's Leases (which a test may stall), and a FakeClock. */
class Ring {
  readonly fake = new FakeClient();
  readonly clock = new FakeClock();
  readonly handovers: [string, number][] = [];
  /** Runs instead of an update when it returns a promise. */
  updateHook: WriteHook | undefined;
  /** A stalled watch: the cache keeps what it had. */
  stalled = false;
  #cache: LeaseLike[] = [];
  readonly #handlers: (() => void)[] = [];

  readonly leases: RingLeases = {
    list: () => this.#cache,
    get: (name) => this.#cache.find((lease) => lease.metadata?.name === name),
    onChange: (handler) => {
      this.#handlers.push(handler);
    },
    waitForSync: () => Promise.resolve(true),
  };

  readonly api: LeaseApi = {
    get: (resource, key, signal) => this.fake.get(resource, key, signal),
    create: (resource, object, options) => this.fake.create(resource, object, options),
    delete: (resource, key, options) => this.fake.delete(resource, key, options),
    update: <T extends KubeObject>(resource: ResourceType<T>, object: T, options?: WriteOptions): Promise<T> => {
      const hooked = this.updateHook?.(object, options);
      return hooked === undefined ? this.fake.update(resource, object, options) : (hooked as Promise<T>);
    },
  };

  coordinator(
    identity: string,
    timing = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, renewPeriodMs: 5000 },
  ): { coordinator: ShardCoordinator; gate: BucketGate; done: Promise<unknown> } {
    const gate = new BucketGate(BUCKETS);
    const observer = {
      members: () => undefined,
      handover: (kind: string, bucket: number) => void this.handovers.push([kind, bucket]),
    };
    const coordinator = new ShardCoordinator({
      ring: RING,
      namespace: NAMESPACE,
      client: this.api,
      leases: this.leases,
      gate,
      identity,
      logger: createLogger({ level: 'silent' }),
      timing,
      observer,
      bucketCount: BUCKETS,
      clock: this.clock,
    });
    const stop = new AbortController();
    stops.push(stop);
    const done = coordinator.start(stop.signal).then(
      () => 'stopped',
      (error: unknown) => error,
    );
    return { coordinator, gate, done };
  }

  /** Another member, played by the test: its member Lease written on the API server. */
  async renew(identity: string): Promise<void> {
    const name = memberLeaseName(RING, identity);
    const current = this.fake.objects(leaseResource).find((lease) => lease.metadata?.name === name);
    const spec = { holderIdentity: identity, leaseDurationSeconds: 15, renewTime: new Date().toISOString() };
    await (current === undefined
      ? this.fake.create(leaseResource, { metadata: { name, namespace: NAMESPACE }, spec })
      : this.fake.update(leaseResource, { ...current, spec: { ...current.spec, ...spec } }));
  }

  seedBuckets(holders: Readonly<Record<number, string>>): void {
    this.fake.seed(
      leaseResource,
      Object.entries(holders).map(([bucket, holder]) => ({
        metadata: { name: bucketLeaseName(RING, Number(bucket)), namespace: NAMESPACE },
        spec: { holderIdentity: holder },
      })),
    );
  }

  holderOf(bucket: number): string | undefined {
    return this.fake.objects(leaseResource).find((lease) => lease.metadata?.name === bucketLeaseName(RING, bucket))
      ?.spec?.holderIdentity;
  }

  /** The watch delivers what the API server holds (unless stalled); `notify: false` leaves the round asleep (it was busy). */
  sync(notify = true): void {
    if (this.stalled) {
      return;
    }
    this.#cache = this.fake.objects(leaseResource);
    for (const handler of notify ? this.#handlers : []) {
      handler();
    }
  }

  /** Moves time on in steps, letting the coordinator's promises run, calling `each` after every step. */
  async run(ms: number, each: (now: number) => Promise<void> | void = () => undefined): Promise<void> {
    const end = this.clock.now() + ms;
    while (this.clock.now() < end) {
      this.clock.advance(STEP_MS);
      await each(this.clock.now());
      this.sync();
      await settle();
    }
  }
}

function hangUntilAborted(signal: AbortSignal | undefined): Promise<LeaseLike> {
  return new Promise((_, reject) => {
    signal?.addEventListener('abort', () => {
      reject(new Error('the renewal was abandoned'));
    });
  });
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const stops: AbortController[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) {
    stop.abort();
  }
  vi.restoreAllMocks();
});

const ownersOfTwo = assignBuckets(['a', 'b'], { buckets: BUCKETS });
const sharesOfTwo = { a: bucketsOf(ownersOfTwo, 'a'), b: bucketsOf(ownersOfTwo, 'b') };

/** b holds its share of a ring of a and b, a's share is free, and b renews every 5 s from `start` on. */
function twoMemberRing(ring: Ring): (now: number) => Promise<void> {
  ring.seedBuckets(
    Object.fromEntries([
      ...sharesOfTwo.a.map((b): [number, string] => [b, '']),
      ...sharesOfTwo.b.map((b): [number, string] => [b, 'b']),
    ]),
  );
  const start = ring.clock.now();
  return async (now) => {
    if ((now - start) % 5000 === 0) {
      await ring.renew('b');
    }
  };
}

describe('ShardCoordinator fencing (docs/sharding.md, "Fencing")', () => {
  it('with renew deadline 12 s of 15 s, a member whose renewals hang stops at 12 s after sending its last good one, before anyone may take over at 15 s', async () => {
    const ring = new Ring();
    const { gate, done } = ring.coordinator('a', {
      leaseDurationMs: 15_000,
      renewDeadlineMs: 12_000,
      renewPeriodMs: 5000,
    });
    const start = ring.clock.now();
    ring.sync();
    await ring.run(1000);
    expect(gate.states().size).toBe(BUCKETS);
    // From now on every renewal hangs until its caller gives up.
    ring.updateHook = (lease, options) =>
      lease.metadata?.name === memberLeaseName(RING, 'a') ? hangUntilAborted(options?.signal) : undefined;
    let fencedAt: number | undefined;
    await ring.run(16_000, (now) => {
      if (fencedAt === undefined && gate.states().size === 0) {
        fencedAt = now - start;
      }
    });
    expect(fencedAt).toBeDefined();
    expect(fencedAt).toBeLessThanOrEqual(12_000 + STEP_MS);
    expect(await done).toBeInstanceOf(FencedError);
  });

  it('refuses a timing whose fence margin cannot hold a write in flight, naming the settings', () => {
    const ring = new Ring();
    expect(() =>
      ring.coordinator('a', { leaseDurationMs: 15_000, renewDeadlineMs: 14_000, renewPeriodMs: 5000 }),
    ).toThrow(/renewDeadlineMs \(14s\) must be at least 2s below leaseDurationMs \(15s\)/);
  });
});

describe('ShardCoordinator takeovers', () => {
  it('takes no bucket from a member that a stalled watch shows as expired while the API server shows it renewed', async () => {
    const ring = new Ring();
    const renewB = twoMemberRing(ring);
    await ring.renew('b');
    ring.sync();
    ring.coordinator('a');
    await ring.run(1000);
    ring.stalled = true;
    await ring.run(30_000, renewB);
    for (const bucket of sharesOfTwo.b) {
      expect(ring.holderOf(bucket)).toBe('b');
    }
    for (const bucket of sharesOfTwo.a) {
      expect(ring.holderOf(bucket)).toBe('a');
    }
    expect(ring.handovers.filter(([kind]) => kind === 'taken_over')).toEqual([]);
    expect(
      ring.fake.actions.some((action) => action.verb === 'get' && action.name === memberLeaseName(RING, 'b')),
    ).toBe(true);
  });

  it('takes over once the API server too shows the holder not renewed for a whole Lease duration', async () => {
    const ring = new Ring();
    twoMemberRing(ring);
    await ring.renew('b');
    ring.sync();
    ring.coordinator('a');
    await ring.run(20_000);
    for (const bucket of [...sharesOfTwo.a, ...sharesOfTwo.b]) {
      expect(ring.holderOf(bucket)).toBe('a');
    }
    expect(
      ring.handovers
        .filter(([kind]) => kind === 'taken_over')
        .map(([, bucket]) => bucket)
        .sort(),
    ).toEqual(sharesOfTwo.b);
  });
});

describe('ShardCoordinator releases', () => {
  it('a release retried after another member claimed the bucket writes nothing and counts it lost', async () => {
    const ring = new Ring();
    const { gate } = ring.coordinator('a');
    ring.sync();
    await ring.run(1000);
    expect(gate.states().size).toBe(BUCKETS);
    const [moved = -1] = sharesOfTwo.b;
    // The release commits, b claims the free bucket at once, and the answer to a is lost.
    ring.updateHook = (lease, options) => {
      if (
        lease.metadata?.name !== bucketLeaseName(RING, moved) ||
        lease.spec?.holderIdentity !== '' ||
        ring.updateHook === undefined
      ) {
        return undefined;
      }
      ring.updateHook = undefined;
      return (async () => {
        const released = await ring.fake.update(leaseResource, lease, options);
        await ring.fake.update(leaseResource, { ...released, spec: { ...released.spec, holderIdentity: 'b' } });
        ring.sync(false);
        throw new DOMException('timed out', 'TimeoutError');
      })();
    };
    await ring.run(20_000, async (now) => {
      if (now % 5000 === 0) {
        await ring.renew('b');
      }
    });
    expect(ring.holderOf(moved)).toBe('b');
    expect(ring.handovers).toContainEqual(['lost', moved]);
    expect(ring.handovers).not.toContainEqual(['released', moved]);
    expect(gate.state(moved)).toBeUndefined();
  });
});

describe('ShardCoordinator clocks', () => {
  it('a wall clock stepped forward and back by a minute neither fences the member nor takes over a live one', async () => {
    const ring = new Ring();
    const renewB = twoMemberRing(ring);
    await ring.renew('b');
    ring.sync();
    const { gate, done } = ring.coordinator('a');
    await ring.run(5000, renewB);
    const realNow = Date.now.bind(Date);
    const step = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 60_000);
    await ring.run(10_000, renewB);
    step.mockImplementation(() => realNow() - 60_000);
    await ring.run(10_000, renewB);
    expect([...gate.states().keys()].sort()).toEqual(sharesOfTwo.a);
    expect(ring.handovers.filter(([kind]) => kind === 'taken_over')).toEqual([]);
    expect(await Promise.race([done, Promise.resolve('running')])).toBe('running');
  });
});
