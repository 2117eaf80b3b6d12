import { describe, expect, it } from 'vitest';

import { FlagError, managerFlagsSchema as runtimeFlagsSchema, parseFlags } from '@kruise-ts/controller-runtime';

import { shardingFlagsShape, shardTimingFromFlags } from './sharding-flags.ts';

const managerFlagsSchema = runtimeFlagsSchema.extend(shardingFlagsShape);

describe('sharding flags', () => {
  it.each([
    [
      ['--sharding', '--leader-election-renew-deadline=12s'],
      { leaseDurationMs: 15_000, renewDeadlineMs: 12_000, renewPeriodMs: 5000 },
    ],
    [['--sharding'], { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, renewPeriodMs: 5000 }],
    [
      ['--sharding', '--leader-election-lease-duration=12s', '--leader-election-renew-deadline=8s'],
      { leaseDurationMs: 12_000, renewDeadlineMs: 8000, renewPeriodMs: 4000 },
    ],
    [
      ['--sharding', '--leader-election-lease-duration=30s', '--leader-election-renew-deadline=6s'],
      { leaseDurationMs: 30_000, renewDeadlineMs: 6000, renewPeriodMs: 3000 },
    ],
  ])('%j times the ring so that a member fences before others may take over', (argv, timing) => {
    expect(shardTimingFromFlags(parseFlags(argv, managerFlagsSchema))).toEqual(timing);
  });

  it('refuses at start-up a renew deadline too close to the Lease duration, naming both flags', () => {
    expect(() => parseFlags(['--sharding', '--leader-election-renew-deadline=14s'], managerFlagsSchema)).toThrow(
      FlagError,
    );
    expect(() => parseFlags(['--sharding', '--leader-election-renew-deadline=14s'], managerFlagsSchema)).toThrow(
      /--sharding: --leader-election-renew-deadline \(14s\) must be at least 2s below --leader-election-lease-duration \(15s\)/,
    );
    expect(() => parseFlags(['--sharding', '--leader-election-renew-deadline=20s'], managerFlagsSchema)).toThrow(
      /--leader-election-renew-deadline \(20s\)/,
    );
  });

  it('leaves the Lease flags alone without --sharding (the leader Lease keeps its own rules)', () => {
    expect(() => parseFlags(['--leader-election-renew-deadline=14s'], managerFlagsSchema)).not.toThrow();
  });
});
