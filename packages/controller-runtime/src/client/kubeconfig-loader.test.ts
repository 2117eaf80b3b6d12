import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { dump } from 'js-yaml';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { needsClientNode } from './kubeconfig-files.ts';
import {
  defaultKubeConfigSource,
  inClusterContext,
  readCurrentContext,
  StaticKubeConfig,
} from './kubeconfig-loader.ts';
import type { CurrentContext } from './kubeconfig-loader.ts';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kubeconfig-loader-'));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `content` to `name` under the temp dir (creating directories) and returns its path. */
function write(name: string, content: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

/** A kubeconfig with one context `ctx` of cluster `c` and user `u`. */
function kubeconfigYaml(cluster: Record<string, unknown>, user: Record<string, unknown>): string {
  return dump({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'ctx',
    clusters: [{ name: 'c', cluster: { server: 'https://api.example:6443', ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
  });
}

const base64 = (text: string): string => Buffer.from(text).toString('base64');

async function httpsOptions(file: string, initial: https.RequestOptions = {}): Promise<https.RequestOptions> {
  const options = { ...initial };
  await new StaticKubeConfig(readCurrentContext(file)).applyToHTTPSOptions(options);
  return options;
}

describe('StaticKubeConfig.applyToHTTPSOptions', () => {
  interface Case {
    readonly name: string;
    readonly cluster?: Record<string, unknown>;
    readonly user: Record<string, unknown>;
    /** Files next to the kubeconfig (which is `kube/config` in the temp dir), by relative name. */
    readonly files?: Readonly<Record<string, string>>;
    readonly expected: https.RequestOptions;
  }
  const cases: readonly Case[] = [
    { name: 'token', user: { token: 's3cret' }, expected: { headers: { Authorization: 'Bearer s3cret' } } },
    { name: 'an empty token', user: { token: '' }, expected: {} },
    {
      name: 'a token file, relative to the kubeconfig',
      user: { tokenFile: 'secrets/token' },
      files: { 'secrets/token': 'from-file\n' },
      expected: { headers: { Authorization: 'Bearer from-file' } },
    },
    {
      name: 'token over tokenFile',
      user: { token: 'inline', tokenFile: 'missing' },
      expected: { headers: { Authorization: 'Bearer inline' } },
    },
    {
      name: 'client certificate and key data (base64)',
      user: { 'client-certificate-data': base64('CERT-DATA'), 'client-key-data': base64('KEY-DATA') },
      expected: { cert: Buffer.from('CERT-DATA'), key: Buffer.from('KEY-DATA') },
    },
    {
      name: 'client certificate and key files, relative to the kubeconfig',
      user: { 'client-certificate': 'pki/client.crt', 'client-key': '../client.key' },
      files: { 'pki/client.crt': 'CERT-FILE', '../client.key': 'KEY-FILE' },
      expected: { cert: Buffer.from('CERT-FILE'), key: Buffer.from('KEY-FILE') },
    },
    {
      name: 'certificate authority data',
      cluster: { 'certificate-authority-data': base64('CA-DATA') },
      user: {},
      expected: { ca: Buffer.from('CA-DATA') },
    },
    {
      name: 'certificate authority file',
      cluster: { 'certificate-authority': 'ca.crt' },
      user: {},
      files: { 'ca.crt': 'CA-FILE' },
      expected: { ca: Buffer.from('CA-FILE') },
    },
    {
      name: 'insecure-skip-tls-verify',
      cluster: { 'insecure-skip-tls-verify': true },
      user: {},
      expected: { rejectUnauthorized: false },
    },
    { name: 'insecure-skip-tls-verify false', cluster: { 'insecure-skip-tls-verify': false }, user: {}, expected: {} },
    {
      name: 'tls-server-name',
      cluster: { 'tls-server-name': 'kubernetes.default' },
      user: {},
      expected: { servername: 'kubernetes.default' },
    },
    {
      name: 'username and password',
      user: { username: 'admin', password: 'pa:ss' },
      expected: { auth: 'admin:pa:ss' },
    },
    { name: 'username without password', user: { username: 'admin' }, expected: { auth: 'admin:' } },
    { name: 'no credentials', user: {}, expected: {} },
    {
      name: 'everything at once',
      cluster: { 'certificate-authority-data': base64('CA'), 'tls-server-name': 'api' },
      user: { token: 't', 'client-certificate-data': base64('C'), 'client-key-data': base64('K') },
      expected: {
        ca: Buffer.from('CA'),
        cert: Buffer.from('C'),
        key: Buffer.from('K'),
        servername: 'api',
        headers: { Authorization: 'Bearer t' },
      },
    },
  ];

  it.each(cases)('$name', async ({ cluster = {}, user, files = {}, expected }) => {
    for (const [name, content] of Object.entries(files)) {
      write(path.join('kube', name), content);
    }
    const file = write('kube/config', kubeconfigYaml(cluster, user));
    expect(await httpsOptions(file)).toEqual(expected);
  });

  it('keeps the headers already in the options', async () => {
    const file = write('config', kubeconfigYaml({}, { token: 't' }));
    expect(await httpsOptions(file, { headers: { 'X-Trace': '1' } })).toEqual({
      headers: { 'X-Trace': '1', Authorization: 'Bearer t' },
    });
    expect(await httpsOptions(write('plain', kubeconfigYaml({}, {})), { headers: { 'X-Trace': '1' } })).toEqual({
      headers: { 'X-Trace': '1' },
    });
  });

  it('appends the token to headers given as a flat list', async () => {
    const file = write('config', kubeconfigYaml({}, { token: 't' }));
    expect(await httpsOptions(file, { headers: ['X-Trace', '1'] })).toEqual({
      headers: ['X-Trace', '1', 'Authorization', 'Bearer t'],
    });
  });

  it('takes an absolute token file as it is', async () => {
    const token = write('elsewhere/token', 'absolute');
    const file = write('kube/config', kubeconfigYaml({}, { tokenFile: token }));
    expect(await httpsOptions(file)).toEqual({ headers: { Authorization: 'Bearer absolute' } });
  });

  it('re-reads a token file only once the token is older than a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2026-01-01T00:00:00Z').getTime();
    vi.setSystemTime(start);
    const token = write('token', 'first\n');
    const kubeConfig = new StaticKubeConfig(
      readCurrentContext(write('config', kubeconfigYaml({}, { tokenFile: 'token' }))),
    );
    const authorization = async (): Promise<unknown> => {
      const options: https.RequestOptions = {};
      await kubeConfig.applyToHTTPSOptions(options);
      return options.headers;
    };

    expect(await authorization()).toEqual({ Authorization: 'Bearer first' });
    writeFileSync(token, 'second\n');
    for (const elapsed of [1, 30_000, 60_000]) {
      vi.setSystemTime(start + elapsed);
      expect(await authorization(), `after ${elapsed} ms`).toEqual({ Authorization: 'Bearer first' });
    }
    vi.setSystemTime(start + 60_001);
    expect(await authorization()).toEqual({ Authorization: 'Bearer second' });
    writeFileSync(token, 'third');
    vi.setSystemTime(start + 120_001);
    expect(await authorization()).toEqual({ Authorization: 'Bearer second' });
    vi.setSystemTime(start + 120_002);
    expect(await authorization()).toEqual({ Authorization: 'Bearer third' });
  });

  it('serves the server of the current cluster', () => {
    const file = write('config', kubeconfigYaml({ server: 'https://10.1.2.3:443/prefix' }, {}));
    expect(new StaticKubeConfig(readCurrentContext(file)).getCurrentCluster()).toEqual({
      server: 'https://10.1.2.3:443/prefix',
    });
  });
});

describe('readCurrentContext', () => {
  it('resolves the current context among several', () => {
    const file = write(
      'kube/config',
      dump({
        'current-context': 'second',
        clusters: [
          { name: 'a', cluster: { server: 'https://a' } },
          { name: 'b', cluster: { server: 'https://b', 'insecure-skip-tls-verify': true } },
        ],
        users: [
          { name: 'ua', user: { token: 'ta' } },
          { name: 'ub', user: { token: 'tb' } },
        ],
        contexts: [
          { name: 'first', context: { cluster: 'a', user: 'ua' } },
          { name: 'second', context: { cluster: 'b', user: 'ub', namespace: 'ns' } },
        ],
      }),
    );
    expect(readCurrentContext(file)).toEqual({
      cluster: { server: 'https://b', 'insecure-skip-tls-verify': true },
      user: { token: 'tb' },
    });
  });

  it.each([
    ['a context without a user', { cluster: 'c' }],
    ['a context whose user is not defined', { cluster: 'c', user: 'nobody' }],
  ])('takes no credentials for %s', (_name, context) => {
    const file = write(
      'config',
      dump({
        'current-context': 'ctx',
        clusters: [{ name: 'c', cluster: { server: 'https://c' } }],
        contexts: [{ name: 'ctx', context }],
      }),
    );
    expect(readCurrentContext(file).user).toEqual({});
  });

  it('takes no credentials for a user entry without a user', () => {
    const file = write(
      'config',
      'current-context: ctx\nclusters: [{name: c, cluster: {server: "https://c"}}]\nusers: [{name: u, user: null}]\ncontexts: [{name: ctx, context: {cluster: c, user: u}}]\n',
    );
    expect(readCurrentContext(file).user).toEqual({});
  });

  const clusters = [{ name: 'c', cluster: { server: 'https://c' } }];
  const contexts = [{ name: 'ctx', context: { cluster: 'c' } }];
  it.each([
    [
      'the current context is not among the contexts',
      dump({ 'current-context': 'other', clusters, contexts }),
      'context "other" does not exist in the kubeconfig',
    ],
    ['no current context', dump({ clusters, contexts }), 'the kubeconfig has no current context'],
    [
      'no contexts at all',
      dump({ 'current-context': 'ctx', clusters }),
      'context "ctx" does not exist in the kubeconfig',
    ],
    [
      'the context names an undefined cluster',
      dump({ 'current-context': 'ctx', clusters, contexts: [{ name: 'ctx', context: { cluster: 'gone' } }] }),
      'context "ctx" names cluster "gone", which the kubeconfig does not define',
    ],
    [
      'a cluster without server',
      dump({ 'current-context': 'ctx', clusters: [{ name: 'c', cluster: {} }], contexts }),
      'clusters.0.cluster.server: ',
    ],
    [
      'a cluster with an empty server',
      dump({ 'current-context': 'ctx', clusters: [{ name: 'c', cluster: { server: '' } }], contexts }),
      'clusters.0.cluster.server: ',
    ],
    [
      'a string where a boolean belongs',
      dump({
        'current-context': 'ctx',
        clusters: [{ name: 'c', cluster: { server: 'https://c', 'insecure-skip-tls-verify': 'yes' } }],
        contexts,
      }),
      'clusters.0.cluster.insecure-skip-tls-verify: ',
    ],
    ['a YAML scalar', 'just a string\n', 'expected object, received string'],
    ['a YAML list', '- a\n- b\n', 'expected object, received array'],
    ['an empty file', '', 'kubeconfig'],
    ['a YAML syntax error', 'clusters: [\n', 'kubeconfig'],
  ])('%s: the error names the file and the problem', (_name, content, problem) => {
    const file = write('kube/broken-config', content);
    let message = '';
    try {
      readCurrentContext(file);
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message.startsWith(`kubeconfig ${file}: `), message).toBe(true);
    expect(message).toContain(problem);
    expect(message).not.toMatch(/: : /);
  });

  it('names a file that does not exist', () => {
    expect(() => readCurrentContext(path.join(dir, 'absent'))).toThrow(path.join(dir, 'absent'));
  });
});

describe('needsClientNode', () => {
  const context = (cluster: Partial<CurrentContext['cluster']>, user: CurrentContext['user']): CurrentContext => ({
    cluster: { server: 'https://c', ...cluster },
    user,
  });
  it.each([
    ['an exec plugin', context({}, { exec: { command: 'aws', apiVersion: 'client.authentication.k8s.io/v1' } }), true],
    ['an auth provider', context({}, { 'auth-provider': { name: 'oidc' } }), true],
    ['a proxy', context({ 'proxy-url': 'http://proxy:3128' }, {}), true],
    ['a token', context({}, { token: 't' }), false],
    ['a token file', context({}, { tokenFile: '/t' }), false],
    [
      'a client certificate',
      context(
        { 'certificate-authority-data': 'Q0E=' },
        { 'client-certificate-data': 'Qw==', 'client-key-data': 'Sw==' },
      ),
      false,
    ],
    ['basic credentials', context({}, { username: 'u', password: 'p' }), false],
    ['no credentials', context({}, {}), false],
    ['exec: null', context({}, { exec: null }), false],
  ])('%s: %s', (_name, input, expected) => {
    expect(needsClientNode(input)).toBe(expected);
  });

  it('is true for an exec user read from a file', () => {
    const file = write(
      'config',
      kubeconfigYaml({}, { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'get-token' } }),
    );
    expect(needsClientNode(readCurrentContext(file))).toBe(true);
  });
});

describe('inClusterContext', () => {
  const serviceAccount = (files: readonly ('token' | 'ca.crt')[]): string => {
    const account = path.join(dir, 'serviceaccount');
    mkdirSync(account, { recursive: true });
    for (const name of files) {
      writeFileSync(path.join(account, name), name === 'token' ? 'sa-token\n' : 'SA-CA');
    }
    return account;
  };

  it.each([
    ['an IPv4 host', '10.96.0.1', 'https://10.96.0.1:443'],
    ['a DNS name', 'kubernetes.default.svc', 'https://kubernetes.default.svc:443'],
    ['an IPv6 host, in brackets', 'fd00:10:96::1', 'https://[fd00:10:96::1]:443'],
  ])('%s', async (_name, host, server) => {
    const account = serviceAccount(['token', 'ca.crt']);
    const context = inClusterContext({ KUBERNETES_SERVICE_HOST: host, KUBERNETES_SERVICE_PORT: '443' }, account);
    expect(context).toEqual({
      cluster: { server, 'certificate-authority': path.join(account, 'ca.crt') },
      user: { tokenFile: path.join(account, 'token') },
    });
    if (context === undefined) {
      return;
    }
    expect(needsClientNode(context)).toBe(false);
    const kubeConfig = new StaticKubeConfig(context);
    const options: https.RequestOptions = {};
    await kubeConfig.applyToHTTPSOptions(options);
    expect(kubeConfig.getCurrentCluster()).toEqual({ server });
    expect(options).toEqual({ ca: Buffer.from('SA-CA'), headers: { Authorization: 'Bearer sa-token' } });
  });

  it.each([
    ['no token file', ['ca.crt'] as const, { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' }],
    ['no KUBERNETES_SERVICE_HOST', ['token', 'ca.crt'] as const, { KUBERNETES_SERVICE_PORT: '443' }],
    ['no KUBERNETES_SERVICE_PORT', ['token', 'ca.crt'] as const, { KUBERNETES_SERVICE_HOST: '10.96.0.1' }],
    ['no environment', ['token', 'ca.crt'] as const, {}],
  ])('is undefined with %s', (_name, files, env) => {
    expect(inClusterContext(env, serviceAccount(files))).toBeUndefined();
  });
});

describe('defaultKubeConfigSource', () => {
  it.each([
    {
      name: 'KUBECONFIG with several files, empty entries and missing files dropped (as kubectl)',
      env: (home: string) => ({
        HOME: home,
        KUBECONFIG: [path.join(home, 'a'), '', path.join(home, 'missing'), path.join(home, 'b'), ''].join(
          path.delimiter,
        ),
        KUBERNETES_SERVICE_HOST: '10.96.0.1',
      }),
      homeConfig: true,
      expected: (home: string): unknown => ({ files: [path.join(home, 'a'), path.join(home, 'b')] }),
    },
    {
      name: 'KUBECONFIG with one file',
      env: (home: string) => ({ HOME: home, KUBECONFIG: path.join(home, 'a') }),
      homeConfig: true,
      expected: (home: string): unknown => ({ files: [path.join(home, 'a')] }),
    },
    {
      name: 'KUBECONFIG with only missing files, in-cluster',
      env: (home: string) => ({
        HOME: home,
        KUBECONFIG: path.join(home, 'missing'),
        KUBERNETES_SERVICE_HOST: '10.96.0.1',
      }),
      homeConfig: true,
      expected: (): unknown => 'in-cluster',
    },
    {
      name: 'HOME/.kube/config when it exists',
      env: (home: string) => ({ HOME: home, KUBERNETES_SERVICE_HOST: '10.96.0.1' }),
      homeConfig: true,
      expected: (home: string): unknown => ({ files: [path.join(home, '.kube', 'config')] }),
    },
    {
      name: 'an empty KUBECONFIG counts as unset',
      env: (home: string) => ({ HOME: home, KUBECONFIG: path.delimiter }),
      homeConfig: true,
      expected: (home: string): unknown => ({ files: [path.join(home, '.kube', 'config')] }),
    },
    {
      name: 'in-cluster when only KUBERNETES_SERVICE_HOST is set',
      env: (home: string) => ({ HOME: home, KUBERNETES_SERVICE_HOST: '10.96.0.1' }),
      homeConfig: false,
      expected: (): unknown => 'in-cluster',
    },
    { name: 'nothing', env: (home: string) => ({ HOME: home }), homeConfig: false, expected: (): unknown => undefined },
  ])('$name', ({ env, homeConfig, expected }) => {
    const home = path.join(dir, 'home');
    mkdirSync(home);
    write('home/a', kubeconfigYaml({}, {}));
    write('home/b', kubeconfigYaml({}, {}));
    if (homeConfig) {
      write('home/.kube/config', kubeconfigYaml({}, {}));
    }
    expect(defaultKubeConfigSource(env(home))).toEqual(expected(home));
  });
});
