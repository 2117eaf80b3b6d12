import { describe, expect, it } from 'vitest';

import { BuildProgressReporter, formatBuildProgress, formatElapsed, parseGoBuildLine } from './build-progress.ts';
import type { BuildProgress, GoBuildEvent, ProgressTerminal } from './build-progress.ts';

describe('parseGoBuildLine', () => {
  it.each<[string, GoBuildEvent | undefined]>([
    ['k8s.io/kubernetes/pkg/controller/job', { kind: 'package', path: 'k8s.io/kubernetes/pkg/controller/job' }],
    ['internal/abi', { kind: 'package', path: 'internal/abi' }],
    ['runtime', { kind: 'package', path: 'runtime' }],
    ['gopkg.in/yaml.v3', { kind: 'package', path: 'gopkg.in/yaml.v3' }],
    [
      'github.com/google/gnostic-models/openapiv2',
      { kind: 'package', path: 'github.com/google/gnostic-models/openapiv2' },
    ],
    ['go.etcd.io/etcd/server/v3', { kind: 'package', path: 'go.etcd.io/etcd/server/v3' }],
    ['go: downloading k8s.io/api v0.34.10', { kind: 'download', module: 'k8s.io/api v0.34.10' }],
    ['go: downloading github.com/spf13/cobra v1.9.1\r', { kind: 'download', module: 'github.com/spf13/cobra v1.9.1' }],
    ['# k8s.io/kubernetes/pkg/kubelet', undefined],
    ['./main.go:3:2: undefined: x', undefined],
    ['pkg/a/a.go:12:5: cannot use y (variable of type int) as string value', undefined],
    ['go: k8s.io/api@v0.34.10: missing go.sum entry', undefined],
    ['note: module requires Go 1.26', undefined],
    ['', undefined],
  ])('%j', (line, expected) => {
    expect(parseGoBuildLine(line)).toEqual(expected);
  });
});

describe('formatElapsed', () => {
  it.each([
    [0, '0s'],
    [999, '0s'],
    [45_400, '45s'],
    [59_999, '59s'],
    [60_000, '1m00s'],
    [192_000, '3m12s'],
    [3_723_000, '62m03s'],
  ])('%d ms -> %s', (ms, expected) => {
    expect(formatElapsed(ms)).toBe(expected);
  });
});

const compiling = (path: string): GoBuildEvent => ({ kind: 'package', path });
const base: BuildProgress = {
  tool: 'kube',
  packages: 412,
  downloads: 0,
  elapsedMs: 192_000,
  current: compiling('k8s.io/kubernetes/pkg/controller/job'),
};

const fetching: BuildProgress = {
  ...base,
  packages: 0,
  downloads: 37,
  elapsedMs: 45_000,
  current: { kind: 'download', module: 'k8s.io/api v0.34.10' },
};

describe('formatBuildProgress', () => {
  it.each<{ name: string; progress: BuildProgress; width?: number; expected: string }>([
    {
      name: 'compiling',
      progress: base,
      expected: 'building kube: 412 packages compiled, 3m12s, now k8s.io/kubernetes/pkg/controller/job',
    },
    {
      name: 'before the first line',
      progress: { ...base, packages: 0, elapsedMs: 2000, current: undefined },
      expected: 'building kube: 0 packages compiled, 2s',
    },
    {
      name: 'one package',
      progress: { ...base, packages: 1, current: compiling('runtime') },
      expected: 'building kube: 1 package compiled, 3m12s, now runtime',
    },
    {
      name: 'fetching modules',
      progress: fetching,
      expected: 'building kube: 37 modules downloaded, 0 packages compiled, 45s, now downloading k8s.io/api v0.34.10',
    },
    {
      name: 'a narrow terminal keeps the end of a module',
      progress: fetching,
      width: 82,
      expected: 'building kube: 37 modules downloaded, 0 packages compiled, 45s, now …/api v0.34.10',
    },
    {
      name: 'fits exactly',
      progress: base,
      width: 85,
      expected: 'building kube: 412 packages compiled, 3m12s, now k8s.io/kubernetes/pkg/controller/job',
    },
    {
      name: 'a narrow terminal keeps the last segments of the path',
      progress: base,
      width: 60,
      expected: 'building kube: 412 packages compiled, 3m12s, now …/job',
    },
    {
      name: 'too narrow for any of the path',
      progress: base,
      width: 48,
      expected: 'building kube: 412 packages compiled, 3m12s, now',
    },
    {
      name: 'too narrow for the counts',
      progress: { ...base, current: undefined },
      width: 20,
      expected: 'building kube: 412 p',
    },
  ])('$name', ({ progress, width, expected }) => {
    const line = formatBuildProgress(progress, width);
    expect(line).toBe(expected);
    expect(line.length).toBeLessThanOrEqual(width ?? Number.POSITIVE_INFINITY);
  });
});

function fakeTerminal(isTTY: boolean, columns?: number): ProgressTerminal & { readonly written: string[] } {
  const written: string[] = [];
  return {
    isTTY,
    columns,
    written,
    write: (text: string) => written.push(text),
  };
}

function reporterAt(terminal: ProgressTerminal | undefined): {
  reporter: BuildProgressReporter;
  logged: string[];
  advance: (ms: number) => void;
} {
  let now = 1000;
  const logged: string[] = [];
  const reporter = new BuildProgressReporter({ tool: 'etcd', log: (line) => logged.push(line), terminal }, () => now);
  return {
    reporter,
    logged,
    advance: (ms) => {
      now += ms;
    },
  };
}

describe('BuildProgressReporter', () => {
  it('counts packages and downloads, and ignores everything else', () => {
    const { reporter } = reporterAt(undefined);
    [
      'go: downloading go.uber.org/zap v1.27.0',
      'runtime',
      '# go.etcd.io/etcd/server/v3',
      'main.go:1:1: oops',
      'go.uber.org/zap',
    ].forEach((line) => {
      reporter.onOutputLine(line);
    });
    expect(reporter.progress()).toEqual({
      tool: 'etcd',
      packages: 2,
      downloads: 1,
      elapsedMs: 0,
      current: compiling('go.uber.org/zap'),
    });
  });

  it('without a terminal, logs one line every 15 seconds', () => {
    const { reporter, logged, advance } = reporterAt(undefined);
    reporter.onOutputLine('runtime');
    for (let second = 0; second < 31; second += 1) {
      advance(1000);
      reporter.tick();
    }
    reporter.finish();
    expect(logged).toEqual([
      'building etcd: 1 package compiled, 15s, now runtime',
      'building etcd: 1 package compiled, 30s, now runtime',
    ]);
  });

  it('a terminal that is not a TTY gets nothing; the lines go to the log', () => {
    const terminal = fakeTerminal(false);
    const { reporter, logged, advance } = reporterAt(terminal);
    advance(15_000);
    reporter.tick();
    expect(terminal.written).toEqual([]);
    expect(logged).toEqual(['building etcd: 0 packages compiled, 15s']);
  });

  it('on a TTY, redraws one line every tick within the width and erases it at the end', () => {
    const terminal = fakeTerminal(true, 60);
    const { reporter, logged, advance } = reporterAt(terminal);
    reporter.onOutputLine('go.etcd.io/etcd/server/v3/etcdserver/api/v3rpc');
    advance(1000);
    reporter.tick();
    advance(1000);
    reporter.tick();
    reporter.finish();
    expect(terminal.written).toEqual([
      '\r\x1b[Kbuilding etcd: 1 package compiled, 1s, now …/api/v3rpc',
      '\r\x1b[Kbuilding etcd: 1 package compiled, 2s, now …/api/v3rpc',
      '\r\x1b[K',
    ]);
    expect(logged).toEqual([]);
  });
});
