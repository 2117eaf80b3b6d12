import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { ensureTools, LocalClusterError } from '../../src/index.ts';
import type { GoToolSpec } from '../../src/index.ts';

const dirs: string[] = [];

async function toolModule(name: string, mainGo: string): Promise<{ spec: GoToolSpec; cacheRoot: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-go-build-'));
  dirs.push(root);
  const moduleDir = path.join(root, 'module');
  await mkdir(moduleDir);
  await writeFile(path.join(moduleDir, 'go.mod'), `module example.com/${name}\n\ngo 1.24\n`);
  await writeFile(path.join(moduleDir, 'main.go'), mainGo);
  const spec: GoToolSpec = {
    name,
    version: 'v0.0.1',
    moduleDir,
    packagePath: '.',
    binary: name,
    aliases: [`${name}-alias`],
    ldflags: ['-s', '-w'],
  };
  return { spec, cacheRoot: path.join(root, 'cache') };
}

async function failure(promise: Promise<unknown>): Promise<LocalClusterError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LocalClusterError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a LocalClusterError');
}

afterEach(async () => {
  for (const dir of dirs.splice(0)) {
    await rm(dir, { recursive: true, force: true });
  }
});

describe('building the Go tools', () => {
  it('builds a tool only when it is missing from the cache', async () => {
    const { spec, cacheRoot } = await toolModule('hello', 'package main\n\nfunc main() { println("hello") }\n');
    const first = (await ensureTools({ cacheRoot, specs: [spec] })).get('hello');
    expect(first?.buildSeconds).toBeTypeOf('number');
    expect(first?.path.startsWith(path.join(cacheRoot, 'bin', 'hello-v0.0.1-'))).toBe(true);

    const second = (await ensureTools({ cacheRoot, specs: [spec] })).get('hello');
    expect(second?.buildSeconds).toBeUndefined();
    expect(second?.path).toBe(first?.path);

    await writeFile(path.join(spec.moduleDir, 'main.go'), 'package main\n\nfunc main() { println("changed") }\n');
    const rebuilt = (await ensureTools({ cacheRoot, specs: [spec] })).get('hello');
    expect(rebuilt?.buildSeconds).toBeTypeOf('number');
    expect(rebuilt?.path).not.toBe(first?.path);
  });

  it('names Go as missing when the toolchain cannot be found', async () => {
    const { spec, cacheRoot } = await toolModule('nogo', 'package main\n\nfunc main() {}\n');
    const error = await failure(ensureTools({ cacheRoot, specs: [spec], goBinary: '/nonexistent/go' }));
    expect(error.details.component).toBe('go build nogo');
    expect(error.message).toContain('the Go toolchain (1.26 or newer) is not on PATH');
  });

  it('names the Go version when it is too old to build the tools', async () => {
    const { spec, cacheRoot } = await toolModule('oldgo', 'package main\n\nfunc main() {}\n');
    const fakeGo = path.join(path.dirname(spec.moduleDir), 'go');
    await writeFile(fakeGo, '#!/bin/sh\necho go1.24.3\n', { mode: 0o755 });
    const error = await failure(ensureTools({ cacheRoot, specs: [spec], goBinary: fakeGo }));
    expect(error.message).toContain('Go 1.26 or newer is needed, but');
    expect(error.message).toContain('"go1.24.3"');
  });

  it('reports a failed build with the compiler output', async () => {
    const { spec, cacheRoot } = await toolModule('broken', 'package main\n\nfunc main() { undefinedFunction() }\n');
    const error = await failure(ensureTools({ cacheRoot, specs: [spec] }));
    expect(error.details.component).toBe('go build broken');
    expect(error.message).toMatch(/exited with code 1/);
    expect(error.details.logTail).toContain('undefined: undefinedFunction');
    expect(error.details.logFile).toContain(path.join(cacheRoot, 'logs'));
  });
});
