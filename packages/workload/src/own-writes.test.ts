import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { resourceClient } from '@kruise-ts/controller-runtime';
import type { ResourceEventHandler } from '@kruise-ts/controller-runtime';
import { FakeClient } from '@kruise-ts/controller-runtime/testing';

import { ResourceVersionExpectations } from './expectations/resource-version-expectations.ts';
import { CACHE_LAG_RETRY_MS } from './cache-lag.ts';
import { expectingOwnWrites, waitForOwnWrite, watchOwnWrites } from './own-writes.ts';
import { podResource } from './resources.ts';

const KEY = { namespace: 'ns', name: 'web' };

function setup(): { fake: FakeClient; expectations: ResourceVersionExpectations; before: Pod } {
  const fake = new FakeClient();
  fake.seed(podResource, [{ metadata: { ...KEY, uid: 'u-1' }, spec: { containers: [] } }]);
  const [before] = fake.objects(podResource);
  if (before === undefined) {
    throw new Error('not seeded');
  }
  return { fake, expectations: new ResourceVersionExpectations(), before };
}

describe('expectingOwnWrites and waitForOwnWrite', () => {
  it('a status patch and a patch each make a copy older than what they returned wait; the returned copy or a later one does not', async () => {
    const { fake, expectations, before } = setup();
    const client = expectingOwnWrites(resourceClient(fake, podResource), expectations);
    expect(waitForOwnWrite(expectations, before)).toBeUndefined();

    const afterStatus = await client.patchStatus(KEY, { type: 'merge', body: { status: { phase: 'Running' } } });
    expect(waitForOwnWrite(expectations, before)).toBe(CACHE_LAG_RETRY_MS);
    const afterPatch = await client.patch(KEY, { type: 'merge', body: { metadata: { labels: { a: 'b' } } } });
    expect(waitForOwnWrite(expectations, afterStatus)).toBe(CACHE_LAG_RETRY_MS);
    expect(waitForOwnWrite(expectations, afterPatch)).toBeUndefined();
    expect(waitForOwnWrite(expectations, before)).toBeUndefined();
  });

  it('reads and deletes go through untouched and record nothing', async () => {
    const { fake, expectations, before } = setup();
    const client = expectingOwnWrites(resourceClient(fake, podResource), expectations);
    expect((await client.get(KEY)).metadata?.uid).toBe('u-1');
    await client.delete(KEY);
    expect(expectations.pendingKeys()).toEqual([]);
    expect(waitForOwnWrite(expectations, before)).toBeUndefined();
  });
});

describe('watchOwnWrites', () => {
  it("settles the expectation at the update event showing the write, and forgets it at the object's delete event", async () => {
    const { fake, expectations, before } = setup();
    const handlers: ResourceEventHandler<Pod>[] = [];
    watchOwnWrites<Pod>({ addEventHandler: (handler) => handlers.push(handler) }, expectations);
    const [handler] = handlers;
    const client = expectingOwnWrites(resourceClient(fake, podResource), expectations);

    const written = await client.patchStatus(KEY, { type: 'merge', body: { status: { phase: 'Running' } } });
    handler?.onUpdate?.(before, before);
    expect(expectations.pendingKeys()).toEqual(['ns/web']);
    handler?.onUpdate?.(before, written);
    expect(expectations.pendingKeys()).toEqual([]);

    await client.patchStatus(KEY, { type: 'merge', body: { status: { phase: 'Succeeded' } } });
    handler?.onDelete?.(before);
    expect(expectations.pendingKeys()).toEqual([]);
  });
});
