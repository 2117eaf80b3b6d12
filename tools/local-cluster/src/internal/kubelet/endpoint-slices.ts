/**
 * EndpointSlices for the Services that select the process kubelet's pods, as kube-controller-manager's
 * endpointslice controller would write them from the pods' IPs and readiness: one slice per Service and
 * pod (each pod's container ports map to host ports of its own, and a slice has one port list), owned by
 * the Service, `serving` following the pod's readiness, `terminating` while the pod is deleted, and
 * `ready` serving and not terminating (always, with `publishNotReadyAddresses`).
 */
import type { DiscoveryV1EndpointPort, V1EndpointSlice, V1Service } from '@kubernetes/client-node';

export const ENDPOINT_SLICE_MANAGER = 'process-kubelet.kruise-ts.io';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
/** The node whose kubelet wrote the slice: each process kubelet of a cluster keeps only its own. */
export const SLICE_NODE_LABEL = 'process-kubelet.kruise-ts.io/node';

/** What the slices need of one pod. */
export interface EndpointPod {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly labels: Readonly<Record<string, string>>;
  /** The pod's Ready condition. */
  readonly ready: boolean;
  readonly terminating: boolean;
  readonly address: string;
  readonly nodeName: string;
  hostPort(port: number | string): number | undefined;
}

function selects(service: V1Service, pod: EndpointPod): boolean {
  const selector = service.spec?.selector;
  if (selector === undefined || Object.keys(selector).length === 0 || service.metadata?.namespace !== pod.namespace) {
    return false;
  }
  return Object.entries(selector).every(([key, value]) => pod.labels[key] === value);
}

export function sliceName(service: string, podUid: string): string {
  return `${service.slice(0, 40)}-pk-${podUid.slice(0, 8)}`;
}

/** The Service's ports at the pod's host ports; a named targetPort the pod does not declare is left out, as the controller does. */
function slicePorts(service: V1Service, pod: EndpointPod): DiscoveryV1EndpointPort[] {
  return (service.spec?.ports ?? []).flatMap((port) => {
    const hostPort = pod.hostPort(port.targetPort ?? port.port);
    return hostPort === undefined ? [] : [{ name: port.name ?? '', port: hostPort, protocol: port.protocol ?? 'TCP' }];
  });
}

function sliceFor(service: V1Service, pod: EndpointPod): V1EndpointSlice {
  const serviceName = service.metadata?.name ?? '';
  // As kube-controller-manager's endpointslice controller decides it.
  const ready = service.spec?.publishNotReadyAddresses === true || (pod.ready && !pod.terminating);
  const ports = slicePorts(service, pod);
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: sliceName(serviceName, pod.uid),
      namespace: pod.namespace,
      labels: {
        [SERVICE_NAME_LABEL]: serviceName,
        [MANAGED_BY_LABEL]: ENDPOINT_SLICE_MANAGER,
        [SLICE_NODE_LABEL]: pod.nodeName,
      },
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: serviceName,
          uid: service.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    addressType: 'IPv4',
    endpoints: [
      {
        addresses: [pod.address],
        conditions: { ready, serving: pod.ready, terminating: pod.terminating },
        nodeName: pod.nodeName,
        targetRef: { kind: 'Pod', namespace: pod.namespace, name: pod.name, uid: pod.uid },
      },
    ],
    ports,
  };
}

/** Every slice that should exist, by `namespace/name`. */
export function desiredSlices(
  services: readonly V1Service[],
  pods: readonly EndpointPod[],
): Map<string, V1EndpointSlice> {
  const slices = new Map<string, V1EndpointSlice>();
  for (const service of services) {
    for (const pod of pods.filter((candidate) => selects(service, candidate))) {
      const slice = sliceFor(service, pod);
      slices.set(`${pod.namespace}/${slice.metadata?.name ?? ''}`, slice);
    }
  }
  return slices;
}

/** Whether an existing slice already says what the desired one says. */
export function sameSlice(existing: V1EndpointSlice, desired: V1EndpointSlice): boolean {
  const view = (slice: V1EndpointSlice): string =>
    JSON.stringify([
      (slice.endpoints ?? []).map((endpoint) => [
        endpoint.addresses,
        endpoint.conditions?.ready,
        endpoint.conditions?.serving,
        endpoint.conditions?.terminating,
      ]),
      (slice.ports ?? []).map((port) => [port.name, port.port, port.protocol]),
    ]);
  return view(existing) === view(desired);
}
