import { describe, expect, it } from 'vitest';

import { buildFakeNodes, MAX_FAKE_NODES, podCidrForNode, ZONE_LABEL, zoneName } from './nodes.ts';

function cidrRange(cidr: string): [number, number] {
  const [address = '', bits = '32'] = cidr.split('/');
  const start = address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
  return [start, start + 2 ** (32 - Number(bits)) - 1];
}

describe('fake nodes', () => {
  it('gives every node a distinct, non-overlapping /20 inside 10.64.0.0/10', () => {
    const ranges = Array.from({ length: MAX_FAKE_NODES }, (_, i) => cidrRange(podCidrForNode(i))).sort(
      (a, b) => a[0] - b[0],
    );
    const [outerStart, outerEnd] = cidrRange('10.64.0.0/10');
    for (const [index, [start, end]] of ranges.entries()) {
      expect(end - start + 1).toBe(4096);
      expect(start).toBeGreaterThanOrEqual(outerStart);
      expect(end).toBeLessThanOrEqual(outerEnd);
      expect(start).toBeGreaterThan(ranges[index - 1]?.[1] ?? -1);
    }
  });

  it('spreads nodes over zones round-robin', () => {
    const nodes = buildFakeNodes({ count: 5, zones: 3, podsPerNode: 100 });
    expect(nodes.map((n) => n.metadata?.labels?.[ZONE_LABEL])).toEqual([
      'zone-a',
      'zone-b',
      'zone-c',
      'zone-a',
      'zone-b',
    ]);
    expect(nodes.map((n) => n.status?.allocatable?.['pods'])).toEqual(['100', '100', '100', '100', '100']);
    expect(nodes.every((n) => n.spec?.taints === undefined)).toBe(true);
  });

  it('names zones beyond z', () => {
    expect([zoneName(0), zoneName(25), zoneName(26)]).toEqual(['zone-a', 'zone-z', 'zone-a1']);
  });

  it.each([
    [{ count: 0, zones: 1, podsPerNode: 1 }, 'nodes must be an integer from 1 to 1024, got 0'],
    [{ count: 1025, zones: 1, podsPerNode: 1 }, 'nodes must be an integer from 1 to 1024, got 1025'],
    [{ count: 1, zones: 0, podsPerNode: 1 }, 'zones must be a positive integer, got 0'],
    [{ count: 1, zones: 1, podsPerNode: 5000 }, 'podsPerNode must be an integer from 1 to 4094, got 5000'],
  ])('rejects %o', (options, message) => {
    expect(() => buildFakeNodes(options)).toThrow(message);
  });
});
