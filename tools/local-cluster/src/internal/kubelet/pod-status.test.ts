import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import type { ContainerState, ContainerView, TerminatedState } from './container-state.ts';
import { containerStatusOf, podPhase, podStatus } from './pod-status.ts';

const T0 = new Date('2025-01-01T00:00:00Z');
const T1 = new Date('2025-01-01T00:01:00Z');
const T2 = new Date('2025-01-01T00:02:00Z');

const running: ContainerState = { kind: 'running', startedAt: T1, containerID: 'process://42' };
const waiting: ContainerState = { kind: 'waiting', reason: 'ContainerCreating' };
const exited = (exitCode: number): TerminatedState => ({
  exitCode,
  reason: exitCode === 0 ? 'Completed' : 'Error',
  startedAt: T0,
  finishedAt: T1,
  containerID: 'process://41',
});

function view(overrides: Partial<ContainerView> = {}): ContainerView {
  return {
    name: 'app',
    image: 'kruise-ts:0.1.0',
    state: running,
    lastState: undefined,
    restartCount: 0,
    started: true,
    ready: true,
    everStarted: true,
    ...overrides,
  };
}

function pod(restartPolicy: string, status: V1Pod['status'] = {}, readinessGates: string[] = []): V1Pod {
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'u' },
    spec: {
      restartPolicy,
      containers: [{ name: 'app' }],
      readinessGates: readinessGates.map((conditionType) => ({ conditionType })),
    },
    status,
  };
}

describe('podPhase', () => {
  it.each([
    {
      what: 'a container never started',
      restartPolicy: 'Always',
      containers: [view({ everStarted: false, state: waiting }), view()],
      phase: 'Pending',
    },
    { what: 'every container running', restartPolicy: 'Always', containers: [view(), view()], phase: 'Running' },
    {
      what: 'one of two exited, Never',
      restartPolicy: 'Never',
      containers: [view({ state: { kind: 'terminated', ...exited(0) } }), view()],
      phase: 'Running',
    },
    {
      what: 'all exited under Always (restarting)',
      restartPolicy: 'Always',
      containers: [view({ state: { kind: 'terminated', ...exited(1) } })],
      phase: 'Running',
    },
    {
      what: 'all exited 0 under Never',
      restartPolicy: 'Never',
      containers: [view({ state: { kind: 'terminated', ...exited(0) } })],
      phase: 'Succeeded',
    },
    {
      what: 'all exited, one non-zero, OnFailure',
      restartPolicy: 'OnFailure',
      containers: [
        view({ state: { kind: 'terminated', ...exited(0) } }),
        view({ state: { kind: 'terminated', ...exited(2) } }),
      ],
      phase: 'Failed',
    },
  ])('$what: $phase', ({ restartPolicy, containers, phase }) => {
    expect(podPhase(pod(restartPolicy), containers)).toBe(phase);
  });
});

describe('podStatus conditions', () => {
  const input = (containers: ContainerView[], previous: V1Pod['status'] = {}) => ({
    pod: pod('Always', previous),
    containers,
    address: '10.0.0.5',
    startTime: T0,
    volumesReady: true,
    now: T2,
  });

  it('keeps conditions it does not own and replaces its own', () => {
    const status = podStatus(
      input([view()], {
        conditions: [
          { type: 'PodScheduled', status: 'True', lastTransitionTime: T0 },
          { type: 'Ready', status: 'False', lastTransitionTime: T0 },
        ],
      }),
    );
    expect(status.conditions?.map((entry) => [entry.type, entry.status])).toEqual([
      ['PodScheduled', 'True'],
      ['PodReadyToStartContainers', 'True'],
      ['Initialized', 'True'],
      ['ContainersReady', 'True'],
      ['Ready', 'True'],
    ]);
  });

  it.each([
    { what: 'unchanged status keeps its transition time', before: 'True', ready: true, expected: T0 },
    { what: 'a changed status transitions now', before: 'False', ready: true, expected: T2 },
    { what: 'False to False keeps its time', before: 'False', ready: false, expected: T0 },
  ])('$what', ({ before, ready, expected }) => {
    const status = podStatus(
      input([view({ ready })], { conditions: [{ type: 'Ready', status: before, lastTransitionTime: T0 }] }),
    );
    expect(status.conditions?.find((entry) => entry.type === 'Ready')?.lastTransitionTime).toEqual(expected);
  });

  it.each([
    {
      what: 'every container ready',
      readiness: [true, true],
      gates: [],
      containersReady: 'True',
      ready: 'True',
      reason: undefined,
    },
    {
      what: 'one container not ready',
      readiness: [true, false],
      gates: [],
      containersReady: 'False',
      ready: 'False',
      reason: 'ContainersNotReady',
    },
    {
      what: 'a readiness gate not passed',
      readiness: [true],
      gates: ['example.com/gate'],
      containersReady: 'True',
      ready: 'False',
      reason: 'ReadinessGatesNotReady',
    },
  ])('$what: ContainersReady and Ready', ({ readiness, gates, containersReady, ready, reason }) => {
    const containers = readiness.map((isReady, index) => view({ name: `c${String(index)}`, ready: isReady }));
    const status = podStatus({ ...input(containers), pod: pod('Always', {}, gates) });
    const find = (type: string) => status.conditions?.find((entry) => entry.type === type);
    expect(find('ContainersReady')?.status).toBe(containersReady);
    expect(find('Ready')?.status).toBe(ready);
    expect(find('Ready')?.reason).toBe(reason);
  });

  it('reports PodReadyToStartContainers False until the volumes are written', () => {
    const status = podStatus({
      ...input([view({ state: waiting, everStarted: false, ready: false, started: false })]),
      volumesReady: false,
    });
    expect(status.conditions?.find((entry) => entry.type === 'PodReadyToStartContainers')?.status).toBe('False');
    expect(status.phase).toBe('Pending');
  });

  it('reports the machine address as host and pod IP, and the start time', () => {
    const status = podStatus(input([view()]));
    expect(status).toMatchObject({
      hostIP: '10.0.0.5',
      podIP: '10.0.0.5',
      podIPs: [{ ip: '10.0.0.5' }],
      hostIPs: [{ ip: '10.0.0.5' }],
      startTime: T0,
    });
  });
});

describe('containerStatusOf', () => {
  it.each([
    [
      'running, never restarted',
      view(),
      {
        state: { running: { startedAt: T1 } },
        lastState: {},
        restartCount: 0,
        containerID: 'process://42',
        ready: true,
        started: true,
      },
    ],
    [
      'running after a crash',
      view({ restartCount: 2, lastState: exited(137) }),
      {
        state: { running: { startedAt: T1 } },
        restartCount: 2,
        lastState: {
          terminated: { exitCode: 137, reason: 'Error', startedAt: T0, finishedAt: T1, containerID: 'process://41' },
        },
        containerID: 'process://42',
      },
    ],
    [
      'waiting in back-off: the last run is lastState and names the container ID',
      view({
        state: { kind: 'waiting', reason: 'CrashLoopBackOff', message: 'back-off 10s' },
        lastState: { ...exited(1), reason: 'OOMKilled', signal: 9 },
        restartCount: 3,
        ready: false,
        started: false,
      }),
      {
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s' } },
        lastState: { terminated: { exitCode: 1, reason: 'OOMKilled', signal: 9 } },
        restartCount: 3,
        containerID: 'process://41',
        ready: false,
        started: false,
      },
    ],
    [
      'terminated with a message (StartError has no container ID)',
      view({
        state: {
          kind: 'terminated',
          exitCode: 128,
          reason: 'StartError',
          message: 'exec: "nope"',
          startedAt: T1,
          finishedAt: T1,
          containerID: '',
        },
        ready: false,
      }),
      {
        state: { terminated: { exitCode: 128, reason: 'StartError', message: 'exec: "nope"', containerID: '' } },
        lastState: {},
      },
    ],
  ])('%s', (_what, container, expected) => {
    const status = containerStatusOf(container);
    expect(status).toMatchObject({ name: 'app', image: 'kruise-ts:0.1.0', ...expected });
    if (container.state.kind === 'terminated' && container.state.containerID === '') {
      expect(status.containerID).toBeUndefined();
    }
  });
});
