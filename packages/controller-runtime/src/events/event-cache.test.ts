import { describe, expect, it } from 'vitest';

import { EventCache } from './event-cache.ts';

const ref = { apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: 'ns', uid: 'u' };

describe('EventCache', () => {
  it('finds an identical event within ten minutes only', () => {
    const cache = new EventCache(10);
    const key = EventCache.key(ref, { type: 'Normal', reason: 'SuccessfulCreate', message: 'created pod p' });
    cache.set(key, { namespace: 'ns', name: 'p.1', count: 1 }, 0);
    expect(cache.get(key, 9 * 60_000)?.count).toBe(1);
    expect(cache.get(key, 11 * 60_000)).toBeUndefined();
    expect(EventCache.key(ref, { type: 'Normal', reason: 'SuccessfulCreate', message: 'other message' })).not.toBe(key);
  });

  it('evicts the least recently used entry beyond capacity', () => {
    const cache = new EventCache(2);
    cache.set('a', { namespace: 'ns', name: 'a', count: 1 }, 0);
    cache.set('b', { namespace: 'ns', name: 'b', count: 1 }, 0);
    cache.set('a', { namespace: 'ns', name: 'a', count: 2 }, 0);
    cache.set('c', { namespace: 'ns', name: 'c', count: 1 }, 0);
    expect([cache.get('a', 0)?.count, cache.get('b', 0), cache.get('c', 0)?.name]).toEqual([2, undefined, 'c']);
  });
});
