import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { kubeConfigFiles, needsClientNode, readKubeConfigFiles, selectContext } from './kubeconfig-files.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'kruise-ts-cli-kubeconfig-'));

function file(name: string, text: string): string {
  const full = path.join(folder, name);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
}

const first = file(
  'a/config',
  `
current-context: dev
clusters:
  - name: dev
    cluster: { server: https://dev:6443, certificate-authority: certs/ca.crt }
  - name: shared
    cluster: { server: https://from-a:6443 }
users:
  - name: dev
    user: { client-certificate: certs/dev.crt, client-key: certs/dev.key }
contexts:
  - name: dev
    context: { cluster: dev, user: dev, namespace: team-a }
  - name: shared
    context: { cluster: shared }
`,
);

const second = file(
  'b/config',
  `
current-context: prod
clusters:
  - name: shared
    cluster: { server: https://from-b:6443 }
  - name: prod
    cluster: { server: https://prod:6443, proxy-url: http://proxy:3128 }
users:
  - name: prod
    user: { exec: { command: get-token, apiVersion: client.authentication.k8s.io/v1 } }
contexts:
  - name: prod
    context: { cluster: prod, user: prod }
  - name: dangling
    context: { cluster: nowhere }
`,
);

describe('kubeConfigFiles', () => {
  it('takes --kubeconfig alone', () => {
    expect(kubeConfigFiles('/x/config', { KUBECONFIG: first })).toEqual(['/x/config']);
  });

  it("takes KUBECONFIG's files that exist, in order", () => {
    expect(kubeConfigFiles(undefined, { KUBECONFIG: [second, '/missing', first].join(path.delimiter) })).toEqual([
      second,
      first,
    ]);
  });

  it('falls back to ~/.kube/config', () => {
    const home = path.join(folder, 'home');
    const config = file('home/.kube/config', 'current-context: x\n');
    expect(kubeConfigFiles(undefined, { HOME: home })).toEqual([config]);
    expect(kubeConfigFiles(undefined, { HOME: path.join(folder, 'nobody') })).toEqual([]);
  });
});

describe('readKubeConfigFiles and selectContext', () => {
  it("uses the current context, its namespace, and paths relative to the entry's file", () => {
    const selected = selectContext(readKubeConfigFiles([first]), undefined);
    expect(selected.name).toBe('dev');
    expect(selected.context.namespace).toBe('team-a');
    expect(selected.cluster['certificate-authority']).toBe(path.join(folder, 'a/certs/ca.crt'));
    expect(selected.user['client-key']).toBe(path.join(folder, 'a/certs/dev.key'));
    expect(needsClientNode(selected)).toBe(false);
  });

  it('merges as kubectl does: the first current context and the first entry of a name win', () => {
    const merged = readKubeConfigFiles([first, second]);
    expect(merged.currentContext).toBe('dev');
    expect(merged.clusters.get('shared')?.server).toBe('https://from-a:6443');
    expect(readKubeConfigFiles([second, first]).clusters.get('shared')?.server).toBe('https://from-b:6443');
  });

  it('switches context with --context; a context without user has no credentials', () => {
    const selected = selectContext(readKubeConfigFiles([first, second]), 'shared');
    expect(selected.cluster.server).toBe('https://from-a:6443');
    expect(selected.user).toEqual({});
    expect(selected.context.namespace).toBeUndefined();
  });

  it('needs client-node for exec credentials and proxies', () => {
    expect(needsClientNode(selectContext(readKubeConfigFiles([first, second]), 'prod'))).toBe(true);
  });

  it.each([
    ['nope', /context "nope" does not exist/],
    ['dangling', /names cluster "nowhere", which the kubeconfig does not define/],
  ])('refuses context %s', (name, message) => {
    expect(() => selectContext(readKubeConfigFiles([first, second]), name)).toThrow(message);
  });

  it('refuses a kubeconfig without a current context when none is asked for', () => {
    expect(() => selectContext(readKubeConfigFiles([file('empty', '')]), undefined)).toThrow(/no current context/);
  });

  it('names the file of a broken kubeconfig', () => {
    const broken = file('broken', 'clusters: [{ name: x, cluster: { server: 42 } }]\n');
    expect(() => readKubeConfigFiles([broken])).toThrow(`kubeconfig ${broken}: clusters.0.cluster.server`);
    expect(() => readKubeConfigFiles([file('syntax', 'clusters: [\n')])).toThrow(/kubeconfig .*syntax/);
  });
});
