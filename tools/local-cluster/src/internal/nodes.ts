import type { V1Node } from '@kubernetes/client-node';

import { KWOK_NODE_ANNOTATION, KWOK_NODE_ANNOTATION_VALUE } from './components/kwok.ts';

export interface FakeNodeOptions {
  readonly count: number;
  /** Zones `zone-a`, `zone-b`, ...; node i is in zone i mod zones. */
  readonly zones: number;
  /** Pods each node accepts (allocatable `pods`). */
  readonly podsPerNode: number;
}

/** Label values that OpenKruise's topology spread and scatter features read. */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const REGION_LABEL = 'topology.kubernetes.io/region';

/** Most nodes one local cluster can have: node i's pod CIDR is the i-th /20 of 10.64.0.0/10. */
export const MAX_FAKE_NODES = 1024;
const POD_ADDRESSES_PER_NODE = 4094;

export function zoneName(index: number): string {
  return `zone-${String.fromCharCode(97 + (index % 26))}${index >= 26 ? String(Math.floor(index / 26)) : ''}`;
}

/**
 * The pod CIDR of node `index`: a /20 (4,094 pod addresses) inside 10.64.0.0/10. 1,024 nodes fit,
 * and three nodes already have addresses for a 10,000-pod benchmark.
 */
export function podCidrForNode(index: number): string {
  const offset = index * 4096;
  const second = 64 + Math.floor(offset / 65536);
  const third = Math.floor((offset % 65536) / 256);
  return `10.${String(second)}.${String(third)}.0/20`;
}

/** Internal IP of node `index`, from 10.0.0.0/16 (kept apart from pod and service ranges). */
export function nodeInternalIp(index: number): string {
  return `10.0.${String(Math.floor((index + 1) / 256))}.${String((index + 1) % 256)}`;
}

/** Validates the node options and returns the Node objects to create. */
export function buildFakeNodes(options: FakeNodeOptions): V1Node[] {
  if (!Number.isInteger(options.count) || options.count < 1 || options.count > MAX_FAKE_NODES) {
    throw new RangeError(`nodes must be an integer from 1 to ${String(MAX_FAKE_NODES)}, got ${String(options.count)}`);
  }
  if (!Number.isInteger(options.zones) || options.zones < 1) {
    throw new RangeError(`zones must be a positive integer, got ${String(options.zones)}`);
  }
  if (
    !Number.isInteger(options.podsPerNode) ||
    options.podsPerNode < 1 ||
    options.podsPerNode > POD_ADDRESSES_PER_NODE
  ) {
    throw new RangeError(
      `podsPerNode must be an integer from 1 to ${String(POD_ADDRESSES_PER_NODE)}, got ${String(options.podsPerNode)}`,
    );
  }
  return Array.from({ length: options.count }, (_, index) => fakeNode(index, options));
}

function fakeNode(index: number, options: FakeNodeOptions): V1Node {
  const name = `kwok-node-${String(index)}`;
  const resources = { cpu: '1000', memory: '4Ti', pods: String(options.podsPerNode), 'ephemeral-storage': '10Ti' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { [KWOK_NODE_ANNOTATION]: KWOK_NODE_ANNOTATION_VALUE, 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'node.kubernetes.io/instance-type': 'kwok',
        [ZONE_LABEL]: zoneName(index % options.zones),
        [REGION_LABEL]: 'local',
        type: 'kwok',
      },
    },
    spec: { podCIDR: podCidrForNode(index), podCIDRs: [podCidrForNode(index)] },
    status: {
      allocatable: resources,
      capacity: resources,
      addresses: [
        { type: 'InternalIP', address: nodeInternalIp(index) },
        { type: 'Hostname', address: name },
      ],
    },
  };
}
