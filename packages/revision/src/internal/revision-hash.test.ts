import { describe, expect, it } from 'vitest';

import { fnv1Hash32, hashRevision, revisionName, safeEncodeString, shortHash } from './revision-hash.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

// Values from Go's hash/fnv.New32 and k8s.io/apimachinery rand.SafeEncodeString.
describe('fnv1Hash32 (FNV-1, not FNV-1a)', () => {
  it.each<[string, number]>([
    ['', 0x811c9dc5],
    ['a', 0x050c5d7e],
    ['foobar', 0x31f0b262],
    ['{}0', 0x2e5b66f3],
    ['hello world', 0x548da96f],
  ])('%j → %d', (input, expected) => {
    expect(fnv1Hash32(utf8(input))).toBe(expected);
  });
});

describe('safeEncodeString', () => {
  it('maps the ten digits through the safe alphabet', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });

  it.each<[string, string]>([
    ['2166136261', '65bb57b6b5'],
    ['808096168', 'd4d4fb5bd'],
  ])('%s → %s', (input, expected) => {
    expect(safeEncodeString(input)).toBe(expected);
  });
});

describe('hashRevision', () => {
  // Raw data and hashes of the seed's sample template as test/golden-go computes them.
  const sampleRaw =
    '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"sample"}},"spec":{"containers":[{"image":"nginx:alpine","name":"nginx","resources":{}}]}}}}';
  const defaultedRaw =
    '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"sample"}},"spec":{"containers":[{"image":"nginx:alpine","imagePullPolicy":"Always","name":"nginx","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}';

  it.each([
    { name: 'the sample template', raw: sampleRaw, collisionCount: 0, hash: '597d4cb8fd', fnv: 1538076498 },
    {
      name: 'the sample template after one collision',
      raw: sampleRaw,
      collisionCount: 1,
      hash: '597d4cb8ff',
      fnv: 1538076499,
    },
    { name: 'the defaulted sample template', raw: defaultedRaw, collisionCount: 0, hash: 'd4d4fb5bd', fnv: 808096168 },
    {
      name: 'the defaulted sample template after one collision',
      raw: defaultedRaw,
      collisionCount: 1,
      hash: 'd4d4fb5bf',
      fnv: 808096169,
    },
  ])('$name', ({ raw, collisionCount, hash, fnv }) => {
    expect(fnv1Hash32(utf8(raw + String(collisionCount)))).toBe(fnv);
    expect(hashRevision(raw, collisionCount)).toBe(hash);
  });

  it('hashes the UTF-8 bytes of non-ASCII data', () => {
    expect(hashRevision('é', 0)).toBe(safeEncodeString(String(fnv1Hash32(Uint8Array.of(0xc3, 0xa9, 0x30)))));
  });
});

describe('revisionName and shortHash', () => {
  it.each<[string, string, string]>([
    ['sample', '597d4cb8fd', 'sample-597d4cb8fd'],
    ['a'.repeat(223), 'h', `${'a'.repeat(223)}-h`],
    ['a'.repeat(230), 'h', `${'a'.repeat(223)}-h`],
  ])('revisionName(%j, %j)', (owner, hash, expected) => {
    expect(revisionName(owner, hash)).toBe(expected);
  });

  it.each<[string, string]>([
    ['sample-597d4cb8fd', '597d4cb8fd'],
    ['my-app-v2-597d4cb8fd', '597d4cb8fd'],
    ['597d4cb8fd', '597d4cb8fd'],
    ['', ''],
    ['trailing-', ''],
  ])('shortHash(%j) = %j', (name, expected) => {
    expect(shortHash(name)).toBe(expected);
  });
});
