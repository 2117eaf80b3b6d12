import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { BenchFlagError } from '../bench-flags.ts';
import { parseAdmissionFlags } from './flags.ts';

const STAMP = '2026-11-25T10-00-00-000Z';

describe('parseAdmissionFlags', () => {
  it('defaults to 1,000 creates after 20 warm-up ones, the bundle, files under bench-results/', () => {
    expect(parseAdmissionFlags([], STAMP)).toEqual({
      creates: 1000,
      warmup: 20,
      runtime: 'bundle',
      outFile: path.resolve(`bench-results/admission-1000-${STAMP}.json`),
      workDir: path.resolve(`bench-results/admission-1000-${STAMP}-work`),
    });
  });

  it('takes every flag', () => {
    const options = parseAdmissionFlags(
      ['--creates', '50', '--warmup=0', '--runtime', 'source', '--out', 'docs/x.json', '--work-dir', '/tmp/w'],
      STAMP,
    );
    expect(options).toEqual({
      creates: 50,
      warmup: 0,
      runtime: 'source',
      outFile: path.resolve('docs/x.json'),
      workDir: '/tmp/w',
    });
  });

  it.each([
    { argv: ['--creates', '0'], message: /--creates/ },
    { argv: ['--creates', 'many'], message: /--creates/ },
    { argv: ['--warmup', '-1'], message: /--warmup/ },
    { argv: ['--runtime', 'docker'], message: /--runtime/ },
    { argv: ['--pods', '10'], message: /pods/ },
    { argv: ['extra'], message: /extra/ },
  ])('refuses $argv', ({ argv, message }) => {
    expect(() => parseAdmissionFlags(argv, STAMP)).toThrow(BenchFlagError);
    expect(() => parseAdmissionFlags(argv, STAMP)).toThrow(message);
  });
});
