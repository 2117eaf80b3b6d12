import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { defaultCacheRoot, resolveClusterOptions } from './options.ts';

describe('local cluster options', () => {
  it('fills in defaults', () => {
    const options = resolveClusterOptions({ cacheRoot: '/cache' });
    expect(options).toMatchObject({
      name: 'default',
      nodes: 4,
      zones: 3,
      runDir: path.join('/cache', 'clusters', 'default'),
      detached: false,
      reuse: false,
    });
    expect(options.kubelet).toEqual({
      podStartDelayMs: 0,
      containerUpdateDelayMs: 0,
      podDeleteDelayMs: 0,
      podParallelism: 4,
    });
    expect(options.schedulerClient).toEqual({ qps: 100, burst: 200 });
  });

  it.each([
    [{ nodes: 0 }, 'nodes'],
    [{ name: 'Bad Name' }, 'name'],
    [{ apiServerPort: 70000 }, 'apiServerPort'],
    [{ kubelet: { podStartDelayMs: -1 } }, 'kubelet.podStartDelayMs'],
    [{ extraArgs: { 'kube-proxy': [] } }, 'extraArgs'],
  ])('rejects %o naming the field', (input, field) => {
    expect(() => resolveClusterOptions(input as never)).toThrow(
      new RegExp(`invalid local cluster options:[\\s\\S]*${field.replace('.', '\\.')}`),
    );
  });

  it('rejects unknown options', () => {
    expect(() => resolveClusterOptions({ nodez: 3 } as never)).toThrow(/nodez/);
  });

  it('puts the cache outside the repository', () => {
    expect(defaultCacheRoot({ KRUISE_TS_CACHE_DIR: 'rel/dir' })).toBe(path.resolve('rel/dir'));
    expect(defaultCacheRoot({ XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/kruise-ts');
  });
});
