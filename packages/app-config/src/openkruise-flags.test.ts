import { describe, expect, it } from 'vitest';

import { compatibilityNotes, FlagError } from '@kruise-ts/controller-runtime';

import { parseManagerFlags } from './manager-flags.ts';
import { OPENKRUISE_MANAGER_FLAGS } from './openkruise-flags.ts';

describe("OpenKruise's kruise-manager flags", () => {
  it.each([
    { argv: ['--enable-leader-election=false'], expected: { 'leader-elect': false } },
    { argv: ['--enable-leader-election'], expected: { 'leader-elect': true } },
    { argv: ['--metrics-addr=:9090'], expected: { 'metrics-bind-address': ':9090' } },
    { argv: ['--health-probe-addr', ':9000'], expected: { 'health-probe-bind-address': ':9000' } },
    {
      argv: ['--rest-config-qps=100', '--rest-config-burst=200'],
      expected: { 'kube-api-qps': 100, 'kube-api-burst': 200 },
    },
    { argv: ['--controller-cache-sync-timeout=5m'], expected: { 'cache-sync-timeout': 300_000 } },
  ])('alias $argv', ({ argv, expected }) => {
    expect(parseManagerFlags(argv)).toMatchObject(expected);
  });

  it('refuses an alias given together with the flag it stands for, naming both', () => {
    expect(() => parseManagerFlags(['--controller-cache-sync-timeout=5m', '--cache-sync-timeout=1m'])).toThrow(
      /--controller-cache-sync-timeout: .*--cache-sync-timeout/,
    );
  });

  it('accepts the flags with no effect here (as the OpenKruise chart passes them) and leaves ours alone', () => {
    const argv = [
      '--logtostderr=true',
      '--v=4',
      '--enable-pprof=true',
      '--pprof-addr=localhost:8090',
      '--sync-period',
      '0',
      '--leader-election-resource-lock=leases',
      '--workers=7',
    ];
    expect(parseManagerFlags(argv)).toMatchObject({ workers: 7 });
  });

  it.each([
    { argv: ['--v=debug'], flag: '--v' },
    { argv: ['--leader-election-resource-lock=configmaps'], flag: '--leader-election-resource-lock' },
    { argv: ['--enable-pprof=yes'], flag: '--enable-pprof' },
    { argv: ['--pprof-addr'], flag: '--pprof-addr' },
  ])('still rejects a bad value of an ignored flag, naming it: $argv', ({ argv, flag }) => {
    expect(() => parseManagerFlags(argv)).toThrow(FlagError);
    expect(() => parseManagerFlags(argv)).toThrow(new RegExp(flag));
  });

  it('says what each compatibility flag was taken as, once', () => {
    expect(
      compatibilityNotes(['--metrics-addr=:9090', '--v=4', '--v=5', '--workers=2'], OPENKRUISE_MANAGER_FLAGS),
    ).toEqual([
      "--metrics-addr is OpenKruise's name for --metrics-bind-address; it works, but --metrics-bind-address is the flag to use",
      '--v is accepted for compatibility with OpenKruise and has no effect: use --log-level (debug, info, warn, error)',
    ]);
  });
});

describe('rate-limiter flags (OpenKruise names and defaults)', () => {
  it('defaults to 5ms → 1000s per item and 10 qps / 100 overall', () => {
    expect(parseManagerFlags([])).toMatchObject({
      'rate-limiter-base-delay': 5,
      'rate-limiter-max-delay': 1_000_000,
      'rate-limiter-qps': 10,
      'rate-limiter-bucket-size': 100,
    });
  });

  it('parses Go durations (1h30m, 1.5s, 300ms as in Go) and numbers', () => {
    expect(parseManagerFlags(['--rate-limiter-max-delay=1h30m', '--rate-limiter-base-delay=1.5s'])).toMatchObject({
      'rate-limiter-max-delay': 5_400_000,
      'rate-limiter-base-delay': 1_500,
    });
    expect(
      parseManagerFlags(['--leader-election-lease-duration=1m30s', '--graceful-shutdown-timeout=300ms']),
    ).toMatchObject({ 'leader-election-lease-duration': 90_000, 'graceful-shutdown-timeout': 300 });
    const flags = parseManagerFlags([
      '--rate-limiter-base-delay=50ms',
      '--rate-limiter-max-delay=5m',
      '--rate-limiter-qps=2.5',
      '--rate-limiter-bucket-size=20',
    ]);
    expect(flags).toMatchObject({
      'rate-limiter-base-delay': 50,
      'rate-limiter-max-delay': 300_000,
      'rate-limiter-qps': 2.5,
      'rate-limiter-bucket-size': 20,
    });
  });

  it.each(['--rate-limiter-base-delay=soon', '--rate-limiter-qps=0', '--rate-limiter-bucket-size=1.5'])(
    'names the flag of a bad value: %s',
    (arg) => {
      expect(() => parseManagerFlags([arg])).toThrow(new RegExp(arg.slice(0, arg.indexOf('='))));
    },
  );
});
