import { describe, expect, it } from 'vitest';

import { goBuildArgs, isGoAtLeast } from './go-build.ts';

describe('isGoAtLeast', () => {
  it.each([
    ['go1.26.8', true],
    ['go1.26', true],
    ['go1.27rc1', true],
    ['go2.0.0', true],
    ['go1.25.9', false],
    ['go1.9', false],
    ['devel +abc', false],
    ['', false],
  ])('%s -> %s', (version, expected) => {
    expect(isGoAtLeast(version, [1, 26])).toBe(expected);
  });
});

describe('goBuildArgs', () => {
  it('builds reproducibly from the committed go.sum only, naming each package it compiles', () => {
    const args = goBuildArgs(
      {
        name: 't',
        version: 'v1',
        moduleDir: '/m',
        packagePath: '.',
        binary: 't',
        aliases: [],
        ldflags: ['-s', '-w', '-X a.b=c'],
      },
      '/out/t',
    );
    expect(args).toEqual([
      'build',
      '-v',
      '-trimpath',
      '-buildvcs=false',
      '-mod=readonly',
      '-ldflags',
      '-s -w -X a.b=c',
      '-o',
      '/out/t',
      '.',
    ]);
  });
});
