import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { findImageMapping, imageRepository, parseDockerfileRuntime, repositoryImage } from './image-mapping.ts';
import type { ImageMapping } from './image-mapping.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

describe('imageRepository', () => {
  it.each([
    ['kruise-ts', 'kruise-ts'],
    ['kruise-ts:0.1.0', 'kruise-ts'],
    ['ghcr.io/org/kruise-ts:0.1.0', 'kruise-ts'],
    ['localhost:5000/kruise-ts', 'kruise-ts'],
    ['localhost:5000/team/kruise-ts:1.2@sha256:0123abcd', 'kruise-ts'],
    ['docker.io/library/busybox@sha256:0123abcd', 'busybox'],
  ])('%s -> %s', (image, repository) => {
    expect(imageRepository(image)).toBe(repository);
  });

  it('finds a mapping by repository only', () => {
    const mapping: ImageMapping = {
      repository: 'kruise-ts',
      workingDir: '/',
      entrypoint: [],
      cmd: [],
      env: {},
      executables: {},
    };
    expect(findImageMapping('ghcr.io/x/kruise-ts:9', [mapping])).toBe(mapping);
    expect(findImageMapping('ghcr.io/x/kruise-ts-other:9', [mapping])).toBeUndefined();
  });
});

describe('parseDockerfileRuntime', () => {
  it('reads the last stage of the repository Dockerfile: node with its flags, the default app, its ENV', () => {
    const runtime = parseDockerfileRuntime(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
    expect(runtime).toEqual({
      entrypoint: ['node', '--max-semi-space-size=2', '--heap-growing-percent=50', '--expose-gc'],
      cmd: ['dist/cloneset.mjs'],
      env: { NODE_ENV: 'production', MALLOC_ARENA_MAX: '2' },
    });
  });

  it.each([
    [
      'ignores earlier stages',
      'FROM a AS b\nENTRYPOINT ["x"]\nENV A=1\nFROM c\nCMD ["y"]\n',
      { entrypoint: [], cmd: ['y'], env: {} },
    ],
    [
      'takes the last ENTRYPOINT and several ENV pairs',
      'FROM a\nENTRYPOINT ["x"]\nENTRYPOINT ["z", "-v"]\nENV A=1 B=two\n',
      { entrypoint: ['z', '-v'], cmd: [], env: { A: '1', B: 'two' } },
    ],
  ])('%s', (_what, text, expected) => {
    expect(parseDockerfileRuntime(text)).toEqual(expected);
  });

  it('refuses the shell form, naming the line', () => {
    expect(() => parseDockerfileRuntime('FROM a\nCMD node x.js\n')).toThrow();
    expect(() => parseDockerfileRuntime('FROM a\nCMD [1]\n')).toThrow('only the exec form is supported: CMD [1]');
  });
});

describe('repositoryImage', () => {
  it('maps kruise-ts to this repository, node to the running Node.js', () => {
    const image = repositoryImage({ root: ROOT });
    expect(image).toMatchObject({
      repository: 'kruise-ts',
      workingDir: ROOT,
      executables: { node: process.execPath },
      cmd: ['dist/cloneset.mjs'],
    });
    expect(image.prepare).toBeTypeOf('function');
  });

  it('runs from a working directory of its own when given one, as the image holds only dist/', () => {
    expect(repositoryImage({ root: ROOT, workingDir: '/tmp/image-a' })).toMatchObject({
      workingDir: '/tmp/image-a',
      cmd: ['dist/cloneset.mjs'],
    });
  });
});
