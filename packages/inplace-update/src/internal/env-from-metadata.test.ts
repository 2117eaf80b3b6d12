import { describe, expect, it } from 'vitest';

import type { PodTemplateSpec } from '@kruise-ts/api';
import { deepHashJsonBytes } from '@kruise-ts/revision';

import {
  containerReadsMetadata,
  envFromMetadataHash,
  hasMetadataEnv,
  splitSubscriptedPath,
} from './env-from-metadata.ts';

type Container = NonNullable<PodTemplateSpec['spec']>['containers'][number];

const ref = (name: string, fieldPath: string): NonNullable<Container['env']>[number] => ({
  name,
  valueFrom: { fieldRef: { fieldPath } },
});

describe('splitSubscriptedPath', () => {
  it.each<[string, readonly [string, string] | undefined]>([
    ["metadata.labels['app']", ['metadata.labels', 'app']],
    ["metadata.annotations['a/b']", ['metadata.annotations', 'a/b']],
    ["metadata.labels['x']['y']", ['metadata.labels', "x']['y"]],
    ['metadata.name', undefined],
    ["['x']", undefined],
    ["metadata.labels'x']", undefined],
  ])('%s', (path, expected) => {
    expect(splitSubscriptedPath(path)).toEqual(expected);
  });
});

describe('envFromMetadataHash', () => {
  const container: Container = {
    name: 'c',
    env: [
      ref('B', "metadata.annotations['note']"),
      ref('A', "metadata.labels['track']"),
      { name: 'PLAIN', value: 'x' },
      { ...ref('LITERAL_WINS', "metadata.labels['track']"), value: 'v' },
      ref('SIDECARSET_VERSION', "metadata.labels['track']"),
      ref('NAME', 'metadata.name'),
      ref('MISSING', "metadata.labels['nope']"),
    ],
  };

  it('hashes the sorted name/value list as Go JSON (value omitted when empty)', () => {
    const metadata = { labels: { track: 'canary' }, annotations: { note: '<n>' } };
    const json = '[{"name":"A","value":"canary"},{"name":"B","value":"\\u003cn\\u003e"},{"name":"MISSING"}]';
    expect(envFromMetadataHash(container, metadata)).toBe(deepHashJsonBytes(json));
  });

  it('hashes null for a container without such env vars', () => {
    expect(envFromMetadataHash({ name: 'c', env: [{ name: 'X', value: '1' }] }, {})).toBe(deepHashJsonBytes('null'));
  });

  it('changes with the values read, not with others', () => {
    const before = envFromMetadataHash(container, { labels: { track: 'a' } });
    expect(envFromMetadataHash(container, { labels: { track: 'b' } })).not.toBe(before);
    expect(envFromMetadataHash(container, { labels: { track: 'a', other: 'x' } })).toBe(before);
  });

  it('knows which containers read which keys', () => {
    expect(containerReadsMetadata(container, 'metadata.labels', 'track')).toBe(true);
    expect(containerReadsMetadata(container, 'metadata.annotations', 'track')).toBe(false);
    expect(hasMetadataEnv(container)).toBe(true);
    expect(hasMetadataEnv({ name: 'c', env: [ref('N', 'metadata.name')] })).toBe(false);
  });
});
