/**
 * The process kubelet's Node: labelled and tainted so that only pods that ask for it land there (the
 * chart's pods, with `nodeSelector` and `tolerations`), never a workload's pod meant for kwok's nodes.
 */
import { networkInterfaces } from 'node:os';

import type { CoreV1Api, V1Node, V1NodeStatus, V1Toleration } from '@kubernetes/client-node';

import { isConflict } from './api-errors.ts';

import { KUBERNETES_VERSION } from '../versions.ts';

export const PROCESS_NODE_NAME = 'kruise-ts-process-node';
/** Label and taint key of the process kubelet's node. */
export const PROCESS_NODE_LABEL = 'kruise-ts.io/process-node';

const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/** What a pod spec (or the chart's values) needs to land on the process kubelet's node. */
export interface ProcessNodePlacement {
  readonly nodeSelector: Record<string, string>;
  readonly tolerations: V1Toleration[];
}

/**
 * The node's hostname label pins the pod to this node: the Node of a kubelet that stopped stays
 * registered and Ready (nothing watches its heartbeat), so the process-node label alone would let
 * the scheduler pick another run's node whose pods no one runs.
 */
export function processNodePlacement(nodeName: string = PROCESS_NODE_NAME): ProcessNodePlacement {
  return {
    nodeSelector: { [PROCESS_NODE_LABEL]: 'true', [HOSTNAME_LABEL]: nodeName },
    tolerations: [{ key: PROCESS_NODE_LABEL, operator: 'Exists', effect: 'NoSchedule' }],
  };
}

/**
 * This machine's first non-loopback IPv4 address: the pods' IP. EndpointSlice validation refuses
 * loopback addresses, and kube-apiserver calls webhooks at the slice's address.
 */
export function machineAddress(): string {
  const candidates = Object.values(networkInterfaces()).flatMap((entries) => entries ?? []);
  const found = candidates.find(
    (entry) => entry.family === 'IPv4' && !entry.internal && !entry.address.startsWith('169.254.'),
  );
  if (found === undefined) {
    throw new Error(
      'the process kubelet needs a non-loopback IPv4 address on this machine: EndpointSlices refuse loopback ones, so the API server could not reach its pods',
    );
  }
  return found.address;
}

function nodeStatus(name: string, address: string, now: Date): V1NodeStatus {
  const capacity = { cpu: '16', memory: '64Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  const times = { lastHeartbeatTime: now, lastTransitionTime: now };
  return {
    capacity,
    allocatable: capacity,
    addresses: [
      { type: 'InternalIP', address },
      { type: 'Hostname', address: name },
    ],
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'process kubelet is posting ready status',
        ...times,
      },
      { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', ...times },
      { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', ...times },
      { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', ...times },
    ],
    nodeInfo: {
      kubeletVersion: KUBERNETES_VERSION,
      architecture: 'amd64',
      operatingSystem: 'linux',
      bootID: '',
      containerRuntimeVersion: 'process://',
      kernelVersion: '',
      kubeProxyVersion: '',
      machineID: '',
      osImage: 'this machine',
      systemUUID: '',
    },
  };
}

function nodeObject(name: string): V1Node {
  return {
    metadata: {
      name,
      labels: {
        [PROCESS_NODE_LABEL]: 'true',
        [HOSTNAME_LABEL]: name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
      },
    },
    spec: { taints: [{ key: PROCESS_NODE_LABEL, value: 'true', effect: 'NoSchedule' }] },
  };
}

/** Creates the Node (or takes over one left by an earlier run) and writes its Ready status. */
export async function registerProcessNode(core: CoreV1Api, name: string, address: string): Promise<void> {
  try {
    await core.createNode({ body: nodeObject(name) });
  } catch (error) {
    // AlreadyExists: an earlier run's Node, taken over.
    if (!isConflict(error)) {
      throw error;
    }
  }
  // The status of an earlier run's Node (another address, say) is replaced whole.
  const current = await core.readNode({ name });
  current.status = nodeStatus(name, address, new Date());
  await core.replaceNodeStatus({ name, body: current });
}
