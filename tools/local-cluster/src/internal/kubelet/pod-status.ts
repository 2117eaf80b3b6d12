/**
 * The status the kubelet writes for a pod, from its containers' views: phase, the conditions the
 * kubelet owns (PodReadyToStartContainers, Initialized, ContainersReady, Ready; others such as
 * PodScheduled are kept), containerStatuses, addresses and startTime.
 */
import type { V1ContainerState, V1ContainerStatus, V1Pod, V1PodCondition, V1PodStatus } from '@kubernetes/client-node';

import type { ContainerState, ContainerView, TerminatedState } from './container-state.ts';

export interface PodStatusInput {
  readonly pod: V1Pod;
  readonly containers: readonly ContainerView[];
  readonly address: string;
  readonly startTime: Date;
  readonly volumesReady: boolean;
  readonly now: Date;
}

const KUBELET_CONDITIONS = new Set(['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready']);

function terminatedOf(state: TerminatedState): V1ContainerState {
  return {
    terminated: {
      exitCode: state.exitCode,
      reason: state.reason,
      startedAt: state.startedAt,
      finishedAt: state.finishedAt,
      containerID: state.containerID,
      ...(state.message === undefined ? {} : { message: state.message }),
      ...(state.signal === undefined ? {} : { signal: state.signal }),
    },
  };
}

function stateOf(state: ContainerState): V1ContainerState {
  switch (state.kind) {
    case 'waiting':
      return { waiting: { reason: state.reason, ...(state.message === undefined ? {} : { message: state.message }) } };
    case 'running':
      return { running: { startedAt: state.startedAt } };
    case 'terminated':
      return terminatedOf(state);
  }
}

export function containerStatusOf(view: ContainerView): V1ContainerStatus {
  const containerID = view.state.kind === 'waiting' ? view.lastState?.containerID : view.state.containerID;
  return {
    name: view.name,
    image: view.image,
    imageID: `process-kubelet://${view.image}`,
    ready: view.ready,
    started: view.started,
    restartCount: view.restartCount,
    state: stateOf(view.state),
    lastState: view.lastState === undefined ? {} : terminatedOf(view.lastState),
    ...(containerID === undefined || containerID === '' ? {} : { containerID }),
  };
}

export function podPhase(pod: V1Pod, containers: readonly ContainerView[]): string {
  if (containers.some((view) => !view.everStarted)) {
    return 'Pending';
  }
  const terminated = containers.filter((view) => view.state.kind === 'terminated');
  if (terminated.length < containers.length || pod.spec?.restartPolicy === 'Always') {
    return 'Running';
  }
  return terminated.every((view) => view.state.kind === 'terminated' && view.state.exitCode === 0)
    ? 'Succeeded'
    : 'Failed';
}

interface ConditionInput {
  readonly type: string;
  readonly status: boolean;
  /** Given when the condition is False. */
  readonly reason?: string;
}

/** The condition, keeping its lastTransitionTime while its status stays the same. */
function condition(previous: readonly V1PodCondition[], input: ConditionInput, now: Date): V1PodCondition {
  const value = input.status ? 'True' : 'False';
  const before = previous.find((entry) => entry.type === input.type);
  const lastTransitionTime =
    before?.status === value && before.lastTransitionTime !== undefined ? before.lastTransitionTime : now;
  return {
    type: input.type,
    status: value,
    lastTransitionTime,
    ...(input.status || input.reason === undefined ? {} : { reason: input.reason }),
  };
}

function readinessGatesPass(pod: V1Pod): boolean {
  const conditions = pod.status?.conditions ?? [];
  return (pod.spec?.readinessGates ?? []).every((gate) =>
    conditions.some((entry) => entry.type === gate.conditionType && entry.status === 'True'),
  );
}

export function podStatus(input: PodStatusInput): V1PodStatus {
  const { pod, containers, now } = input;
  const previous = pod.status?.conditions ?? [];
  const containersReady = containers.every((view) => view.ready);
  const ready = containersReady && readinessGatesPass(pod);
  const conditions = [
    ...previous.filter((entry) => !KUBELET_CONDITIONS.has(entry.type)),
    condition(previous, { type: 'PodReadyToStartContainers', status: input.volumesReady }, now),
    condition(previous, { type: 'Initialized', status: true }, now),
    condition(previous, { type: 'ContainersReady', status: containersReady, reason: 'ContainersNotReady' }, now),
    condition(
      previous,
      { type: 'Ready', status: ready, reason: containersReady ? 'ReadinessGatesNotReady' : 'ContainersNotReady' },
      now,
    ),
  ];
  return {
    phase: podPhase(pod, containers),
    conditions,
    containerStatuses: containers.map(containerStatusOf),
    hostIP: input.address,
    hostIPs: [{ ip: input.address }],
    podIP: input.address,
    podIPs: [{ ip: input.address }],
    startTime: input.startTime,
  };
}
