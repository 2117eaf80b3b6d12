import { describe, expect, it } from 'vitest';

import { z } from 'zod';

import { booleanFlag, FlagError, managerFlagsSchema, parseFlags } from './manager-flags.ts';

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
