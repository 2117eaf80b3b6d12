import { describe, expect, it } from 'vitest';

import { BenchFlagError, parseBenchCommand } from './bench-flags.ts';
import { expandPlaceholders } from './contenders/command-contender.ts';

describe('parseBenchCommand', () => {
  it('defaults: 1,000 pods, no client-side limit, zero kubelet delays, the native baseline with recreate', () => {
    const command = parseBenchCommand(['recreate']);
    expect(command.settings).toMatchObject({
      scenario: 'recreate',
      pods: 1000,
      nodes: 4,
      podsPerNode: 313,
      kubelet: { podStartDelayMs: 0, containerUpdateDelayMs: 0, podDeleteDelayMs: 0, podParallelism: 32 },
      clientQps: 0,
      schedulerQps: 0,
      maxUnavailable: '20%',
      timeoutSeconds: 300,
    });
    expect(parseBenchCommand(['recreate', '--scheduler-qps', '100']).settings.schedulerQps).toBe(100);
    // No kube-apiserver profile unless asked for.
    expect(command.settings.apiserverProfileSeconds).toBeUndefined();
    expect(parseBenchCommand(['inplace', '--apiserver-profile-seconds', '20']).settings.apiserverProfileSeconds).toBe(
      20,
    );
    expect(() => parseBenchCommand(['inplace', '--apiserver-profile-seconds', '601'])).toThrow(
      /--apiserver-profile-seconds/,
    );
    expect(command.contenders.map((contender) => [contender.name, contender.kind])).toEqual([
      ['kruise-ts', 'kruise-ts'],
      ['native-deployment', 'native'],
    ]);
  });

  it.each(['asts-inplace', 'asts-recreate'])(
    '%s: the native StatefulSet controller is the default baseline',
    (scenario) => {
      const command = parseBenchCommand([scenario]);
      expect(command.settings).toMatchObject({ scenario, pods: 1000, maxUnavailable: '20%' });
      expect(command.contenders.map((contender) => [contender.name, contender.kind])).toEqual([
        ['kruise-ts', 'kruise-ts'],
        ['native-statefulset', 'native'],
      ]);
    },
  );

  it('sidecarset-scale: our launcher alone, 1,000 pods by default', () => {
    const command = parseBenchCommand(['sidecarset-scale']);
    expect(command.settings).toMatchObject({ scenario: 'sidecarset-scale', pods: 1000 });
    expect(command.contenders.map((contender) => contender.name)).toEqual(['kruise-ts']);
  });

  it('bcj-nodes: one pod on each of 1,000 nodes, each job pod running 1 s, against the native DaemonSet controller', () => {
    const command = parseBenchCommand(['bcj-nodes']);
    expect(command.settings).toMatchObject({
      scenario: 'bcj-nodes',
      pods: 1000,
      nodes: 1000,
      podsPerNode: 110,
      jobRunMs: 1000,
      timeoutSeconds: 300,
    });
    expect(command.scenario).toMatchObject({ pods: 1000, jobRunMs: 1000 });
    expect(command.contenders.map((contender) => [contender.name, contender.kind])).toEqual([
      ['kruise-ts', 'kruise-ts'],
      ['native-daemonset', 'native'],
    ]);
    expect(parseBenchCommand(['bcj-nodes', '--nodes', '1024', '--job-run-ms', '0']).settings).toMatchObject({
      pods: 1024,
      nodes: 1024,
      jobRunMs: 0,
    });
    // The other scenarios keep their 4 nodes and record no job run time.
    expect(parseBenchCommand(['scale']).settings.jobRunMs).toBeUndefined();
    expect(parseBenchCommand(['scale']).settings.nodes).toBe(4);
  });

  it('takes contenders in order, external ones as name=command', () => {
    const command = parseBenchCommand([
      'inplace',
      '--pods',
      '100',
      '--contender',
      'kruise-ts-per-app',
      '--contender',
      'other=run-it --kubeconfig={kubeconfig}',
    ]);
    expect(command.contenders.map((contender) => [contender.name, contender.kind])).toEqual([
      ['kruise-ts-per-app', 'kruise-ts-per-app'],
      ['other', 'external'],
    ]);
  });

  it('runs kruise-ts-shards-<N> as N sharded replicas of the CloneSet app, for CloneSet scenarios only', () => {
    const [sharded] = parseBenchCommand(['steady', '--contender', 'kruise-ts-shards-4']).contenders;
    expect(sharded).toMatchObject({ name: 'kruise-ts-shards-4', kind: 'kruise-ts-per-app', processes: 4 });
    expect(() => parseBenchCommand(['asts-inplace', '--contender', 'kruise-ts-shards-2'])).toThrow(
      'sharded replicas of the CloneSet app serve CloneSet scenarios only',
    );
    expect(() => parseBenchCommand(['steady', '--contender', 'kruise-ts-shards-0'])).toThrow(BenchFlagError);
  });

  it('idles every scenario 10 s before the change by default (--idle-window-seconds), steady keeping its own --idle-seconds', () => {
    expect(parseBenchCommand(['scale']).scenario).toMatchObject({ idleWindowSeconds: 10, idleSeconds: 30 });
    expect(parseBenchCommand(['recreate', '--idle-window-seconds', '3']).scenario.idleWindowSeconds).toBe(3);
    expect(() => parseBenchCommand(['scale', '--idle-window-seconds', '0'])).toThrow(/--idle-window-seconds/);
    expect(() => parseBenchCommand(['scale', '--idle-window-seconds', '601'])).toThrow(/--idle-window-seconds/);
  });

  it('runs <name>=kruise-ts <flags> as our launcher with more flags, and any other command as an external contender', () => {
    const command = parseBenchCommand([
      'recreate',
      '--contender',
      'without-gates=kruise-ts --cloneset-recreate-without-readiness-gates',
      '--contender',
      'mine=kruise-ts-fork --x',
      '--contender',
      'plain=kruise-ts',
    ]);
    expect(command.contenders.map((contender) => [contender.name, contender.kind])).toEqual([
      ['without-gates', 'kruise-ts'],
      ['mine', 'external'],
      ['plain', 'kruise-ts'],
    ]);
  });

  it('gives a contender the ready URL of --contender-ready <name>=<URL>, placeholders left for its start', () => {
    const command = parseBenchCommand([
      'inplace',
      '--contender',
      'kruise-ts',
      '--contender',
      'ext=run-it --metrics=:{metricsPort}',
      '--contender',
      'other=run-other',
      '--contender-ready',
      'ext=http://127.0.0.1:{metricsPort}/readyz?verbose=1',
      '--contender-ready',
      'other=https://127.0.0.1:9443/healthz',
    ]);
    expect(command.contenders.map((contender) => [contender.name, contender.readyUrl])).toEqual([
      ['kruise-ts', undefined],
      ['ext', 'http://127.0.0.1:{metricsPort}/readyz?verbose=1'],
      ['other', 'https://127.0.0.1:9443/healthz'],
    ]);
    // The contender keeps what it was: only the URL is added.
    expect(command.contenders[1]?.kind).toBe('external');
    expect(typeof command.contenders[1]?.start).toBe('function');
    expect(parseBenchCommand(['scale']).contenders.every((contender) => contender.readyUrl === undefined)).toBe(true);
  });

  it.each([
    [
      ['scale', '--contender-ready', 'ext=127.0.0.1:8080/readyz'],
      '--contender-ready.0: want <contender name>=<http:// or https:// URL>',
    ],
    [
      ['scale', '--contender-ready', 'ext=http://127.0.0.1:8080/readyz'],
      '--contender-ready "ext=http://127.0.0.1:8080/readyz": no contender named "ext" (kruise-ts)',
    ],
    [
      ['recreate', '--contender-ready', 'native-deployment=http://127.0.0.1:1/'],
      'the native baseline is kube-controller-manager of the cluster',
    ],
    [
      [
        'scale',
        '--contender',
        'ext=x',
        '--contender-ready',
        'ext=http://127.0.0.1:1/a',
        '--contender-ready',
        'ext=http://127.0.0.1:1/b',
      ],
      'ext already has a ready URL',
    ],
    [
      ['scale', '--contender', 'ext=x', '--contender-ready', 'ext=http://127.0.0.1:{metricsPort2}/readyz'],
      'the command uses {metricsPort2}, but only 1 metrics port(s) were reserved',
    ],
    [
      ['scale', '--contender', 'ext=x', '--contender-ready', 'ext=http://127.0.0.1:{port}/readyz'],
      '--contender-ready "ext=http://127.0.0.1:{port}/readyz": not a URL',
    ],
  ])('rejects the ready URL of %j', (argv, message) => {
    expect(() => parseBenchCommand(argv)).toThrow(BenchFlagError);
    expect(() => parseBenchCommand(argv)).toThrow(message);
  });

  it('gives steady its pods from workloads × pods per workload', () => {
    const command = parseBenchCommand([
      'steady',
      '--workloads',
      '4',
      '--pods-per-workload',
      '10',
      '--churn-percent',
      '25',
    ]);
    expect(command.settings.pods).toBe(40);
    expect(command.scenario).toMatchObject({ workloads: 4, podsPerWorkload: 10, churnPercent: 25, idleSeconds: 30 });
  });

  it.each([
    [[], 'want a scenario first'],
    [
      ['rollout'],
      'want a scenario first: one of scale, inplace, recreate, steady, asts-inplace, asts-recreate, sidecarset-scale, bcj-nodes (got "rollout")',
    ],
    [
      ['sidecarset-scale', '--contender', 'native'],
      'sidecarset-scale measures a SidecarSet webhook that registers itself; only --contender kruise-ts and --contender openkruise run it',
    ],
    [['scale', '--pods', 'many'], '--pods'],
    [['scale', '--max-unavailable', '20'], '--max-unavailable: must be a percentage like 20%'],
    [['inplace', '--contender', 'native'], 'a native Deployment cannot update pods in place'],
    [
      ['scale', '--contender', 'Bad Name=x'],
      'want kruise-ts, kruise-ts-source, kruise-ts-per-app, native, openkruise, or <name>=<command>',
    ],
    [
      ['scale', '--pods', '1000', '--nodes', '1', '--pods-per-node', '10'],
      '--pods-per-node: 1 nodes × 10 cannot hold 1000 pods',
    ],
    [['steady', '--pods', '10'], '--pods: the steady scenario has --workloads × --pods-per-workload pods'],
    [['scale', '--unknown'], "Unknown option '--unknown'"],
    [['bcj-nodes', '--pods', '10'], '--pods: bcj-nodes has one pod per node; set --nodes'],
    [['bcj-nodes', '--nodes', '1025'], '--nodes'],
  ])('rejects %j naming the problem', (argv, message) => {
    expect(() => parseBenchCommand(argv)).toThrow(BenchFlagError);
    expect(() => parseBenchCommand(argv)).toThrow(message);
  });
});

describe('expandPlaceholders', () => {
  const context = { kubeconfigPath: '/k', metricsPorts: [9000, 9001], qps: 0, burst: 5 };

  it('fills kubeconfig, metrics ports, qps and burst', () => {
    expect(
      expandPlaceholders(
        'c --kubeconfig={kubeconfig} --m=:{metricsPort} --m2=:{metricsPort2} --q={qps} --b={burst}',
        context,
      ),
    ).toBe('c --kubeconfig=/k --m=:9000 --m2=:9001 --q=0 --b=5');
  });

  it('refuses a metrics port that was not reserved', () => {
    expect(() => expandPlaceholders('c {metricsPort3}', context)).toThrow(
      'the command uses {metricsPort3}, but only 2 metrics port(s) were reserved',
    );
  });
});
