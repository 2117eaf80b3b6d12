import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { BenchFlagError, parseBenchCommand } from '../bench-flags.ts';
import {
  OPENKRUISE_NAMESPACE,
  OPENKRUISE_POD_WEBHOOK,
  openKruiseCommand,
  openKruiseContender,
  openKruiseScript,
  shellQuote,
} from './openkruise-contender.ts';
import type { OpenKruiseLaunch } from './openkruise-contender.ts';
import {
  crdFilesOf,
  DEFAULT_OPENKRUISE_MANAGER,
  DEFAULT_OPENKRUISE_SOURCE,
  missingOpenKruisePaths,
  OPENKRUISE_MANAGER_ENV,
  OPENKRUISE_SOURCE_ENV,
  resolveOpenKruisePaths,
} from './openkruise-paths.ts';

const LAUNCH: OpenKruiseLaunch = {
  manager: '/opt/kruise/manager',
  metricsPort: 18080,
  healthPort: 18081,
  webhookPort: 19876,
  certDir: '/run/bench/openkruise-webhook-certs',
  protectionLogDir: '/run/bench/openkruise-protection-log',
  qps: 0,
  burst: 0,
};

/** A stand-in OpenKruise checkout and binary: the files the contender reads, with no content that matters here. */
async function fakeCheckout(): Promise<{ manager: string; source: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'openkruise-paths-'));
  const source = path.join(root, 'kruise');
  await mkdir(path.join(source, 'config', 'crd', 'bases'), { recursive: true });
  await mkdir(path.join(source, 'config', 'webhook'), { recursive: true });
  for (const file of [
    'crd/bases/apps.kruise.io_sidecarsets.yaml',
    'crd/bases/apps.kruise.io_clonesets.yaml',
    'crd/bases/kustomization.txt',
    'webhook/manifests.yaml',
    'webhook/patch_manifests.yaml',
  ]) {
    await writeFile(path.join(source, 'config', file), '');
  }
  const manager = path.join(root, 'manager');
  await writeFile(manager, '#!/bin/sh\n');
  await chmod(manager, 0o755);
  return { manager, source };
}

describe('openKruiseCommand', () => {
  it('serves its webhook on 127.0.0.1 with certificates in a directory of the run, metrics and probes on loopback, no leader election', () => {
    const { env, args } = openKruiseCommand(LAUNCH);
    expect(env).toEqual({
      POD_NAMESPACE: OPENKRUISE_NAMESPACE,
      WEBHOOK_HOST: '127.0.0.1',
      WEBHOOK_PORT: '19876',
      WEBHOOK_CERT_DIR: '/run/bench/openkruise-webhook-certs',
    });
    expect(args).toEqual([
      '--metrics-addr=127.0.0.1:18080',
      '--health-probe-addr=127.0.0.1:18081',
      '--enable-leader-election=false',
      '--enable-pprof=false',
      '--rest-config-qps=100000',
      '--rest-config-burst=100000',
      '--protection-log-path=/run/bench/openkruise-protection-log',
    ]);
  });

  it("gives it the run's client limit when there is one (0 would keep its own 30 QPS)", () => {
    expect(openKruiseCommand({ ...LAUNCH, qps: 50, burst: 100 }).args).toEqual(
      expect.arrayContaining(['--rest-config-qps=50', '--rest-config-burst=100']),
    );
  });

  it('execs the binary under sh with its environment, every word quoted', () => {
    const script = openKruiseScript({ ...LAUNCH, manager: "/opt/it's/manager" });
    expect(script).toMatch(
      /^exec env POD_NAMESPACE='kruise-system' WEBHOOK_HOST='127\.0\.0\.1' WEBHOOK_PORT='19876' WEBHOOK_CERT_DIR='\/run\/bench\/openkruise-webhook-certs' '\/opt\/it'\\''s\/manager' '--metrics-addr=127\.0\.0\.1:18080' /,
    );
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });
});

describe('OpenKruise paths', () => {
  it('takes the flag, else the environment, else the default', () => {
    expect(resolveOpenKruisePaths({}, {})).toEqual({
      manager: DEFAULT_OPENKRUISE_MANAGER,
      source: DEFAULT_OPENKRUISE_SOURCE,
    });
    expect(
      resolveOpenKruisePaths({}, { [OPENKRUISE_MANAGER_ENV]: '/env/manager', [OPENKRUISE_SOURCE_ENV]: '/env/kruise' }),
    ).toEqual({ manager: '/env/manager', source: '/env/kruise' });
    expect(
      resolveOpenKruisePaths(
        { manager: '/flag/manager', source: '/flag/kruise' },
        { [OPENKRUISE_MANAGER_ENV]: '/env/manager' },
      ),
    ).toEqual({ manager: '/flag/manager', source: '/flag/kruise' });
  });

  it('names the flag and the environment variable of what is missing', () => {
    const paths = { manager: '/m', source: '/k' };
    expect(missingOpenKruisePaths(paths, () => false)).toMatch(
      /^--openkruise-manager: no executable kruise-manager at \/m \(flag, or \$KRUISE_TS_BENCH_OPENKRUISE_MANAGER; see tools\/bench\/README\.md/,
    );
    expect(missingOpenKruisePaths(paths, (file) => file !== '/k/config/webhook/manifests.yaml')).toMatch(
      /^--openkruise-source: \/k is not an OpenKruise v1\.9\.0 checkout \(no config\/webhook\/manifests\.yaml; flag, or \$KRUISE_TS_BENCH_OPENKRUISE_SOURCE/,
    );
    expect(missingOpenKruisePaths(paths, () => true)).toBeUndefined();
  });

  it('selects the YAML files of the CRD directory, sorted', () => {
    expect(crdFilesOf('/k/crds', ['b.yaml', 'kustomization.txt', 'a.yaml'])).toEqual([
      '/k/crds/a.yaml',
      '/k/crds/b.yaml',
    ]);
  });
});

describe('--contender openkruise', () => {
  it('brings its own CRDs and names its pod webhook', async () => {
    const checkout = await fakeCheckout();
    const contender = openKruiseContender(checkout);
    expect(contender.kind).toBe('openkruise');
    expect(contender.crdFiles).toEqual([
      path.join(checkout.source, 'config/crd/bases/apps.kruise.io_clonesets.yaml'),
      path.join(checkout.source, 'config/crd/bases/apps.kruise.io_sidecarsets.yaml'),
    ]);
    expect(contender.podWebhookName).toBe(OPENKRUISE_POD_WEBHOOK);
  });

  it('runs every scenario, sidecarset-scale too, from --openkruise-manager and --openkruise-source', async () => {
    const checkout = await fakeCheckout();
    for (const scenario of ['scale', 'inplace', 'asts-inplace', 'sidecarset-scale', 'bcj-nodes']) {
      const command = parseBenchCommand([
        scenario,
        '--contender',
        'kruise-ts',
        '--contender',
        'openkruise',
        '--openkruise-manager',
        checkout.manager,
        '--openkruise-source',
        checkout.source,
      ]);
      expect(command.contenders.map((contender) => contender.kind)).toEqual(['kruise-ts', 'openkruise']);
    }
  });

  it('fails before any cluster starts when the binary is not there, naming the flag', async () => {
    const checkout = await fakeCheckout();
    const argv = [
      'scale',
      '--contender',
      'openkruise',
      '--openkruise-manager',
      '/nonexistent/manager',
      '--openkruise-source',
      checkout.source,
    ];
    expect(() => parseBenchCommand(argv)).toThrow(BenchFlagError);
    expect(() => parseBenchCommand(argv)).toThrow(
      '--contender openkruise: --openkruise-manager: no executable kruise-manager at /nonexistent/manager',
    );
  });
});
