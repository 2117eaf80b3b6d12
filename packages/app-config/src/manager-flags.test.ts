import { describe, expect, it } from 'vitest';

import { FlagError } from '@kruise-ts/controller-runtime';

import { parseManagerFlags } from './manager-flags.ts';

describe('parseManagerFlags', () => {
  it('has controller-runtime / OpenKruise defaults', () => {
    const flags = parseManagerFlags([]);
    expect(flags).toMatchObject({
      namespace: '',
      'kube-api-qps': 30,
      'kube-api-burst': 50,
      'leader-elect': true,
      'leader-election-namespace': 'kruise-system',
      'leader-election-lease-duration': 15_000,
      'leader-election-renew-deadline': 10_000,
      'leader-election-retry-period': 2_000,
      'metrics-bind-address': ':8080',
      'health-probe-bind-address': ':8000',
      'log-level': 'info',
      workers: 3,
      'expectation-timeout': 300_000,
    });
    expect(flags['feature-gates'].enabled('CloneSet')).toBe(true);
  });

  it('parses values, durations, bare booleans and feature gates', () => {
    const flags = parseManagerFlags([
      '--kube-api-qps=12.5',
      '--kube-api-burst',
      '20',
      '--leader-elect=false',
      '--leader-election-lease-duration=30s',
      '--expectation-timeout=1m',
      '--graceful-shutdown-timeout=500ms',
      '--feature-gates=CloneSetShortHash=true',
      '--metrics-bind-address=127.0.0.1:9090',
    ]);
    expect(flags).toMatchObject({
      'kube-api-qps': 12.5,
      'kube-api-burst': 20,
      'leader-elect': false,
      'leader-election-lease-duration': 30_000,
      'expectation-timeout': 60_000,
      'graceful-shutdown-timeout': 500,
    });
    expect(flags['feature-gates'].enabled('CloneSetShortHash')).toBe(true);
    expect(parseManagerFlags(['--leader-elect'])['leader-elect']).toBe(true);
    // 0: no client-side limit (the API server's Priority and Fairness decides), as controller-runtime ≥ 0.15.
    expect(parseManagerFlags(['--kube-api-qps=0', '--kube-api-burst=0'])).toMatchObject({
      'kube-api-qps': 0,
      'kube-api-burst': 0,
    });
  });

  it.each([
    [['--kube-api-qps=abc'], '--kube-api-qps: expected a number of 0 or more, got "abc"'],
    [['--kube-api-qps=-1'], '--kube-api-qps: expected a number of 0 or more, got "-1"'],
    [['--kube-api-burst=2.5'], '--kube-api-burst'],
    [
      ['--leader-election-lease-duration=15'],
      '--leader-election-lease-duration: expected a duration such as 15s, 1h30m or 500ms, got "15" (time: missing unit in duration "15")',
    ],
    [['--leader-election-lease-duration=-1s'], '--leader-election-lease-duration: expected a duration of 0 or more'],
    [['--log-level=loud'], '--log-level'],
    [['--metrics-bind-address=8080'], '--metrics-bind-address: expected host:port, :port or 0'],
    [['--feature-gates=NoSuchGate=true'], 'NoSuchGate'],
    [['--no-such-flag=1'], "Unknown option '--no-such-flag'"],
    [['positional'], 'positional'],
  ])('rejects %o naming the flag', (argv, message) => {
    expect(() => parseManagerFlags(argv)).toThrow(FlagError);
    expect(() => parseManagerFlags(argv)).toThrow(message);
  });
});
