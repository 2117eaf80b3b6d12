import type { V1EndpointSlice, V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { desiredSlices, ENDPOINT_SLICE_MANAGER, sameSlice, SLICE_NODE_LABEL, sliceName } from './endpoint-slices.ts';
import type { EndpointPod } from './endpoint-slices.ts';

const HOST_PORTS: Readonly<Record<string, number>> = { '9443': 40001, webhook: 40001, '8080': 40002 };

function endpointPod(overrides: Partial<EndpointPod> = {}): EndpointPod {
  return {
    namespace: 'ns',
    name: 'app-1',
    uid: 'abcdef0123456789',
    labels: { app: 'web', tier: 'a' },
    ready: true,
    terminating: false,
    address: '192.168.1.7',
    nodeName: 'pk-node',
    hostPort: (port) => HOST_PORTS[String(port)],
    ...overrides,
  };
}

function service(
  overrides: {
    name?: string;
    namespace?: string;
    selector?: Record<string, string> | undefined;
    ports?: { name?: string; port: number; targetPort?: number | string }[];
    publishNotReadyAddresses?: boolean;
  } = {},
): V1Service {
  const selector = 'selector' in overrides ? overrides.selector : { app: 'web' };
  return {
    metadata: { name: overrides.name ?? 'web', namespace: overrides.namespace ?? 'ns', uid: 'svc-uid' },
    spec: {
      ...(selector === undefined ? {} : { selector }),
      ports: overrides.ports ?? [{ name: 'https', port: 443, targetPort: 9443 }],
      ...(overrides.publishNotReadyAddresses === undefined
        ? {}
        : { publishNotReadyAddresses: overrides.publishNotReadyAddresses }),
    },
  };
}

function onlySlice(services: V1Service[], pods: EndpointPod[]): V1EndpointSlice | undefined {
  const slices = [...desiredSlices(services, pods).values()];
  expect(slices.length).toBeLessThanOrEqual(1);
  return slices[0];
}

describe('desiredSlices: which Services select which pods', () => {
  it.each([
    ['a matching selector', service(), true],
    ['a selector with a label the pod lacks', service({ selector: { app: 'web', tier: 'b' } }), false],
    ['every label of the selector matching', service({ selector: { app: 'web', tier: 'a' } }), true],
    ['another namespace', service({ namespace: 'other' }), false],
    ['no selector (endpoints managed by hand)', service({ selector: undefined }), false],
    ['an empty selector', service({ selector: {} }), false],
  ])('%s', (_what, svc, selected) => {
    expect(onlySlice([svc], [endpointPod()]) !== undefined).toBe(selected);
  });

  it('writes one slice per Service and pod, keyed namespace/name, named after both', () => {
    const pods = [endpointPod(), endpointPod({ name: 'app-2', uid: '99999999-rest' })];
    const slices = desiredSlices([service(), service({ name: 'web-metrics', ports: [{ port: 8080 }] })], pods);
    expect([...slices.keys()].sort()).toEqual([
      'ns/web-metrics-pk-99999999',
      'ns/web-metrics-pk-abcdef01',
      'ns/web-pk-99999999',
      'ns/web-pk-abcdef01',
    ]);
    expect(sliceName('x'.repeat(60), 'abcdef0123')).toBe(`${'x'.repeat(40)}-pk-abcdef01`);
  });
});

describe('desiredSlices: ports', () => {
  it.each([
    [
      'a numeric targetPort',
      [{ name: 'https', port: 443, targetPort: 9443 }],
      [{ name: 'https', port: 40001, protocol: 'TCP' }],
    ],
    [
      'a named targetPort',
      [{ name: 'https', port: 443, targetPort: 'webhook' }],
      [{ name: 'https', port: 40001, protocol: 'TCP' }],
    ],
    [
      'no targetPort: the port itself',
      [{ name: 'http', port: 8080 }],
      [{ name: 'http', port: 40002, protocol: 'TCP' }],
    ],
    [
      'a name the pod does not declare is left out',
      [
        { name: 'x', port: 1, targetPort: 'missing' },
        { name: 'http', port: 80, targetPort: 8080 },
      ],
      [{ name: 'http', port: 40002, protocol: 'TCP' }],
    ],
  ])('%s', (_what, ports, expected) => {
    expect(onlySlice([service({ ports })], [endpointPod()])?.ports).toEqual(expected);
  });
});

describe('desiredSlices: endpoint conditions', () => {
  it.each([
    {
      what: 'ready',
      pod: { ready: true, terminating: false },
      publishNotReadyAddresses: false,
      conditions: { ready: true, serving: true, terminating: false },
    },
    {
      what: 'not ready',
      pod: { ready: false, terminating: false },
      publishNotReadyAddresses: false,
      conditions: { ready: false, serving: false, terminating: false },
    },
    {
      what: 'not ready, publishNotReadyAddresses',
      pod: { ready: false, terminating: false },
      publishNotReadyAddresses: true,
      conditions: { ready: true, serving: false, terminating: false },
    },
    {
      what: 'terminating while still ready',
      pod: { ready: true, terminating: true },
      publishNotReadyAddresses: false,
      conditions: { ready: false, serving: true, terminating: true },
    },
    {
      what: 'terminating, publishNotReadyAddresses',
      pod: { ready: false, terminating: true },
      publishNotReadyAddresses: true,
      conditions: { ready: true, serving: false, terminating: true },
    },
  ])('$what', ({ pod, publishNotReadyAddresses, conditions }) => {
    const slice = onlySlice([service({ publishNotReadyAddresses })], [endpointPod(pod)]);
    expect(slice?.endpoints).toEqual([
      {
        addresses: ['192.168.1.7'],
        conditions,
        nodeName: 'pk-node',
        targetRef: { kind: 'Pod', namespace: 'ns', name: 'app-1', uid: 'abcdef0123456789' },
      },
    ]);
  });

  it('labels the slice for the Service, this manager and node, owned by the Service', () => {
    const slice = onlySlice([service()], [endpointPod()]);
    expect(slice?.metadata?.labels).toEqual({
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': ENDPOINT_SLICE_MANAGER,
      [SLICE_NODE_LABEL]: 'pk-node',
    });
    expect(slice?.metadata?.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'svc-uid', controller: true, blockOwnerDeletion: true },
    ]);
    expect(slice?.addressType).toBe('IPv4');
  });
});

describe('sameSlice', () => {
  const base = onlySlice([service()], [endpointPod()]);
  it.each([
    ['the same pod', endpointPod(), true],
    ['readiness changed', endpointPod({ ready: false }), false],
    ['terminating', endpointPod({ terminating: true }), false],
    ['another host port', endpointPod({ hostPort: () => 50000 }), false],
  ])('%s', (_what, pod, same) => {
    const other = onlySlice([service()], [pod]);
    expect(base !== undefined && other !== undefined && sameSlice(base, other)).toBe(same);
  });
});
