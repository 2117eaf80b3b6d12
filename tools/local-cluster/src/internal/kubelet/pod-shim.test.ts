import { describe, expect, it } from 'vitest';

import { mapListenArguments, mapMountedPath } from './pod-shim.ts';

const MOUNTS: [string, string][] = [
  ['/var/run/secrets/kubernetes.io/serviceaccount', '/k/pods/u/volumes/token'],
  ['/etc/config', '/k/pods/u/volumes/config'],
  ['/tmp', '/k/pods/u/volumes/tmp'],
];

describe('mapMountedPath', () => {
  it.each<[string, unknown, unknown]>([
    ['a file under a mount', '/var/run/secrets/kubernetes.io/serviceaccount/token', '/k/pods/u/volumes/token/token'],
    ['the mount path itself', '/etc/config', '/k/pods/u/volumes/config'],
    ['a nested path', '/tmp/a/b.txt', '/k/pods/u/volumes/tmp/a/b.txt'],
    ['a sibling with the same prefix is not under the mount', '/etc/configuration', '/etc/configuration'],
    ['a path outside every mount', '/usr/lib/x', '/usr/lib/x'],
    ['a relative path', 'dist/app.mjs', 'dist/app.mjs'],
    ['a path already mapped stays as it is', '/k/pods/u/volumes/tmp/x', '/k/pods/u/volumes/tmp/x'],
    ['a file descriptor', 7, 7],
    ['a buffer', Buffer.from('/tmp/x'), Buffer.from('/tmp/x')],
  ])('%s', (_what, value, expected) => {
    expect(mapMountedPath(value, MOUNTS)).toEqual(expected);
  });

  it("leaves the image's own files where they are, even under a mounted path (a repository cloned under /tmp)", () => {
    const withImage: [string, string][] = [...MOUNTS, ['/tmp/clone', '/tmp/clone']];
    expect(mapMountedPath('/tmp/clone/dist/cloneset.mjs', withImage)).toBe('/tmp/clone/dist/cloneset.mjs');
    expect(mapMountedPath('/tmp/scratch', withImage)).toBe('/k/pods/u/volumes/tmp/scratch');
  });

  it('maps a file: URL to a path', () => {
    expect(mapMountedPath(new URL('file:///etc/config/a%20b'), MOUNTS)).toBe('/k/pods/u/volumes/config/a b');
    const http = new URL('http://example.com/etc/config');
    expect(mapMountedPath(http, MOUNTS)).toBe(http);
  });

  it('uses the first matching mount (the kubelet orders them longest first)', () => {
    expect(
      mapMountedPath('/a/b/c', [
        ['/a/b', '/inner'],
        ['/a', '/outer'],
      ]),
    ).toBe('/inner/c');
  });
});

describe('mapListenArguments', () => {
  const PORTS = { '9443': 40001, '8080': 40002 };
  const callback = (): void => undefined;

  it.each<[string, unknown[], unknown[]]>([
    ['a declared port', [9443], [40001]],
    ['a declared port as a string', ['8080', '0.0.0.0'], [40002, '0.0.0.0']],
    ['a port and host and callback', [9443, '::', callback], [40001, '::', callback]],
    ['an undeclared port is left alone', [3000], [3000]],
    ['port 0 is left alone', [0], [0]],
    ['an options object', [{ port: 9443, host: '::' }], [{ port: 40001, host: '::' }]],
    ['an options object without a port (a path)', [{ path: '/tmp/s.sock' }], [{ path: '/tmp/s.sock' }]],
    ['a pipe path', ['/tmp/s.sock'], ['/tmp/s.sock']],
  ])('%s', (_what, args, expected) => {
    expect(mapListenArguments(args, PORTS)).toEqual(expected);
  });
});
