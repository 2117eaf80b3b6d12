import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { defaultToolSpecs, KUBERNETES_VERSION } from './versions.ts';

function goMod(spec: { moduleDir: string }): string {
  return readFileSync(path.join(spec.moduleDir, 'go.mod'), 'utf8');
}

describe('tool versions', () => {
  it.each(defaultToolSpecs().map((spec) => [spec.name, spec] as const))(
    '%s: the version equals the go.mod requirement',
    (_, spec) => {
      const modulePath: Record<string, string> = {
        etcd: 'go.etcd.io/etcd/server/v3',
        kwok: 'sigs.k8s.io/kwok',
        helm: 'helm.sh/helm/v4',
        kube: 'k8s.io/kubernetes',
      };
      const required = new RegExp(
        `^\\s*(?:require\\s+)?${(modulePath[spec.name] ?? '').replaceAll('.', '\\.')} (v\\S+)`,
        'm',
      ).exec(goMod(spec))?.[1];
      expect(required).toBe(spec.version);
    },
  );

  it('every Kubernetes staging replace is on the same patch as k8s.io/kubernetes', () => {
    const kube = defaultToolSpecs().find((spec) => spec.name === 'kube');
    expect(kube).toBeDefined();
    const replaces = [...goMod(kube ?? { moduleDir: '' }).matchAll(/^\s*k8s\.io\/(\S+) => k8s\.io\/\S+ (v\S+)$/gm)];
    expect(replaces.length).toBeGreaterThanOrEqual(31);
    const staging = KUBERNETES_VERSION.replace(/^v1\./, 'v0.');
    expect(new Set(replaces.map((match) => match[2]))).toEqual(new Set([staging]));
  });

  it('stamps the Kubernetes version into both version packages', () => {
    const kube = defaultToolSpecs().find((spec) => spec.name === 'kube');
    const flags = kube?.ldflags.join(' ') ?? '';
    expect(flags).toContain(`-X k8s.io/component-base/version.gitVersion=${KUBERNETES_VERSION}`);
    expect(flags).toContain(`-X k8s.io/client-go/pkg/version.gitVersion=${KUBERNETES_VERSION}`);
    expect(flags).toContain('-X k8s.io/component-base/version.gitMinor=34');
  });
});
