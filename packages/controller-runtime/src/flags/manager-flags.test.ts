import { describe, expect, it } from 'vitest';

import { z } from 'zod';

import { booleanFlag, FlagError, managerFlagsSchema, parseFlags, withCrossFlagRule } from './manager-flags.ts';

describe('parseFlags with app flags', () => {
  const schema = managerFlagsSchema.extend({
    'cloneset-scaling-exclude-preparing-delete': booleanFlag().default(false),
    'cloneset-workers': z.string().optional(),
  });

  it('accepts the manager flags plus the app flags, bare booleans included', () => {
    const flags = parseFlags(['--cloneset-scaling-exclude-preparing-delete', '--leader-elect=false'], schema);
    expect(flags['cloneset-scaling-exclude-preparing-delete']).toBe(true);
    expect(flags['leader-elect']).toBe(false);
    expect(parseFlags([], schema)['cloneset-scaling-exclude-preparing-delete']).toBe(false);
  });

  it('still rejects unknown flags', () => {
    expect(() => parseFlags(['--nope'], schema)).toThrow(FlagError);
  });
});

describe('parseFlags with a cross-flag rule', () => {
  // A rule on a flag of its own shape: it holds in every schema that extends the manager's with it.
  const schema = managerFlagsSchema.extend({
    fast: withCrossFlagRule(booleanFlag().default(false), (flags) =>
      flags['fast'] === true && flags['workers'] === 1 ? ['--fast: needs --workers above 1'] : [],
    ),
  });

  it('refuses a command line the rule finds a problem in, naming it', () => {
    expect(() => parseFlags(['--fast', '--workers=1'], schema.extend({ other: z.string().optional() }))).toThrow(
      'invalid flags:\n  --fast: needs --workers above 1',
    );
  });

  it('accepts the others', () => {
    expect(parseFlags(['--fast'], schema).fast).toBe(true);
    expect(parseFlags(['--workers=1'], schema).workers).toBe(1);
  });
});

describe('--api-content-type', () => {
  it.each([
    [[], 'protobuf'],
    [['--api-content-type=json'], 'json'],
    [['--api-content-type=protobuf'], 'protobuf'],
    [['--api-content-type=application/json'], 'json'],
    [['--api-content-type=application/vnd.kubernetes.protobuf'], 'protobuf'],
  ])('%j reads built-in kinds in %s', (args, expected) => {
    expect(parseFlags(args, managerFlagsSchema)['api-content-type']).toBe(expected);
  });

  it('refuses another content type, naming the flag', () => {
    expect(() => parseFlags(['--api-content-type=yaml'], managerFlagsSchema)).toThrow(/api-content-type/);
  });
});
