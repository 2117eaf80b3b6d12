import { loadAllYaml } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { renderKwokStages } from './kwok-stages.ts';

interface StageDoc {
  kind: string;
  metadata: { name: string };
  spec: {
    resourceRef: { kind: string };
    selector: { matchExpressions: { key: string; operator: string; values: string[] }[] };
    delay?: { durationMilliseconds: number };
    steps: (
      | { delete: true }
      | { patch: { subresource: string; type: string; template: string } }
      | { apply: { template: string } }
    )[];
  };
}

function stages(
  delays: { podStartDelayMs?: number; containerUpdateDelayMs?: number; podDeleteDelayMs?: number } = {},
): StageDoc[] {
  return loadAllYaml(renderKwokStages({ kubeletVersion: 'v1.34.10', ...delays })) as StageDoc[];
}

describe('renderKwokStages', () => {
  it('renders the node, pod and volume stages as valid YAML', () => {
    expect(stages().map((s) => [s.spec.resourceRef.kind, s.metadata.name])).toEqual([
      ['Node', 'kruise-ts-node-initialize'],
      ['Pod', 'kruise-ts-pod-start'],
      ['Pod', 'kruise-ts-pod-ready'],
      ['Pod', 'kruise-ts-pod-containers'],
      ['Pod', 'kruise-ts-pod-exit'],
      ['Pod', 'kruise-ts-pod-restart'],
      ['Pod', 'kruise-ts-pod-delete'],
      ['PersistentVolumeClaim', 'kruise-ts-pvc-provision'],
      ['PersistentVolume', 'kruise-ts-pv-reclaim'],
    ]);
  });

  it('provisions for the configured provisioner only', () => {
    const provision = loadAllYaml(
      renderKwokStages({ kubeletVersion: 'v1', provisioner: 'example.com/p' }),
    ) as StageDoc[];
    const pvc = provision.find((s) => s.metadata.name === 'kruise-ts-pvc-provision');
    expect(pvc?.spec.selector.matchExpressions.map((e) => e.key)).toContain(
      '.metadata.annotations["volume.kubernetes.io/storage-provisioner"] == "example.com/p"',
    );
  });

  it('patches status with strategic merge, so conditions merge by type', () => {
    for (const stage of stages()) {
      for (const step of stage.spec.steps) {
        if ('patch' in step) {
          expect(step.patch).toMatchObject({ subresource: 'status', type: 'strategic' });
          expect(step.patch.template.split('{{').length).toBe(step.patch.template.split('}}').length);
        }
      }
    }
  });

  it('has no delays by default, except the run time of job pods, and renders the configured ones', () => {
    const jobStages = ['kruise-ts-pod-exit', 'kruise-ts-pod-restart'];
    expect(
      stages()
        .filter((s) => s.spec.delay !== undefined)
        .map((s) => s.metadata.name),
    ).toEqual(jobStages);
    const delayed = Object.fromEntries(
      stages({ podStartDelayMs: 100, containerUpdateDelayMs: 200, podDeleteDelayMs: 300 }).map((s) => [
        s.metadata.name,
        s.spec.delay?.durationMilliseconds,
      ]),
    );
    expect(delayed).toMatchObject({
      'kruise-ts-pod-start': 100,
      'kruise-ts-pod-containers': 200,
      'kruise-ts-pod-delete': 300,
      'kruise-ts-pod-ready': undefined,
    });
  });

  it('never treats a missing readiness gate condition as ready', () => {
    const ready = stages().find((s) => s.metadata.name === 'kruise-ts-pod-ready');
    const start = stages().find((s) => s.metadata.name === 'kruise-ts-pod-start');
    const template = (stage: StageDoc | undefined): string =>
      stage?.spec.steps.map((step) => ('patch' in step ? step.patch.template : '')).join('') ?? '';
    for (const text of [template(ready), template(start)]) {
      expect(text).toContain('{{- $gatesReady := true }}');
      expect(text).toContain('{{- if not $found }}{{ $gatesReady = false }}{{ end }}');
    }
    expect(template(start)).not.toMatch(
      /range .spec.readinessGates[\s\S]*status: "True"\s*\n\s*type: \{\{ \.conditionType/,
    );
  });

  it("sets kwok's pod stage parallelism when given, first in the file", () => {
    const docs = loadAllYaml(renderKwokStages({ kubeletVersion: 'v1', podParallelism: 32 })) as {
      kind: string;
      options?: unknown;
    }[];
    expect(docs[0]).toMatchObject({
      apiVersion: 'config.kwok.x-k8s.io/v1alpha1',
      kind: 'KwokConfiguration',
      options: { podPlayStageParallelism: 32, nodeLeaseParallelism: 4 },
    });
    expect(docs.slice(1).every((doc) => doc.kind === 'Stage')).toBe(true);
    expect(renderKwokStages({ kubeletVersion: 'v1' })).not.toContain('KwokConfiguration');
  });

  it('reports the kubelet version it is given', () => {
    expect(renderKwokStages({ kubeletVersion: 'v9.9.9' })).toContain('kubeletVersion: v9.9.9');
  });
});
