/**
 * values.schema.json: typos and wrong types fail `helm template` (and so `helm install`) with a
 * message naming the key, instead of being ignored or reaching the pods.
 */
import { describe, expect, it } from 'vitest';

import { renderChart, renderChartFailure } from '../support/helm.ts';

const SCHEMA_FAILURE = "values don't meet the specifications of the schema(s)";

describe('values.schema.json', () => {
  it.each([
    ['an unknown top-level key', { imagee: { tag: 'x' } }, "at '': additional properties 'imagee' not allowed"],
    ['an unknown nested key', { image: { tags: 'x' } }, "at '/image': additional properties 'tags' not allowed"],
    [
      'an unknown app',
      { apps: { clonset: { workers: 2 } } },
      "at '/apps': additional properties 'clonset' not allowed",
    ],
    [
      'an unknown resources key',
      { resources: { request: { cpu: '1' } } },
      "at '/resources': additional properties 'request' not allowed",
    ],
    ['a string for an integer', { replicas: '2' }, "at '/replicas': got string, want integer"],
    ['a fraction for an integer', { replicas: 1.5 }, "at '/replicas': got number, want integer"],
    ['a boolean for the gate string', { featureGates: true }, "at '/featureGates': got boolean, want string"],
    [
      'a gate value other than true/false',
      { featureGates: 'CloneSet=yes' },
      "at '/featureGates': 'CloneSet=yes' does not match pattern",
    ],
    ['a gate without a value', { featureGates: 'CloneSet' }, "at '/featureGates': 'CloneSet' does not match pattern"],
    ['gates separated by semicolons', { featureGates: 'CloneSet=true;SidecarSet=false' }, "at '/featureGates'"],
    ['an unknown log level', { logging: { level: 'verbose' } }, "at '/logging/level': value must be one of"],
    ['a port out of range', { metrics: { port: 70000 } }, "at '/metrics/port': maximum: got 70,000, want 65,535"],
    [
      'a string for a boolean',
      { metrics: { serviceMonitor: { enabled: 'yes' } } },
      "at '/metrics/serviceMonitor/enabled': got string, want boolean",
    ],
    ['zero workers', { apps: { cloneset: { workers: 0 } } }, "at '/apps/cloneset/workers': minimum: got 0, want 1"],
    ['a flag without --', { extraArgs: ['-v=4'] }, "at '/extraArgs/0': '-v=4' does not match pattern"],
    [
      'a bad toleration effect',
      { tolerations: [{ key: 'a', effect: 'NoScheduel' }] },
      "at '/tolerations/0/effect': value must be one of",
    ],
    ['a short digest', { image: { digest: 'sha256:abc' } }, "at '/image/digest': 'sha256:abc' does not match pattern"],
    [
      'a number as a node label value',
      { nodeSelector: { zone: 1 } },
      "at '/nodeSelector/zone': got number, want string",
    ],
    ['a bad quantity', { resources: { limits: { memory: '1 GB' } } }, "at '/resources/limits/memory'"],
    [
      'root as the user',
      { securityContext: { runAsUser: 0 } },
      "at '/securityContext/runAsUser': minimum: got 0, want 1",
    ],
    ['a zero QPS', { kubeAPI: { qps: 0 } }, "at '/kubeAPI/qps': exclusiveMinimum: got 0, want 0"],
  ])('rejects %s, naming the key', async (_name, values, message) => {
    const error = await renderChartFailure(values);
    expect(error).toContain(SCHEMA_FAILURE);
    expect(error).toContain(message);
  });

  it('reports every mistake of a values file at once', async () => {
    const error = await renderChartFailure({
      replica: 2,
      logging: { level: 'loud' },
      image: { pullPolicy: 'Sometimes' },
    });
    expect(error).toContain("additional properties 'replica' not allowed");
    expect(error).toContain("at '/logging/level'");
    expect(error).toContain("at '/image/pullPolicy'");
  });

  it('accepts the allowed shapes: empty gates with spaces and commas, numeric quantities, Helm globals', async () => {
    const { manifests } = await renderChart({
      featureGates: ' , CloneSet=true , ',
      resources: { requests: { cpu: 0.5, memory: '128Mi' } },
      global: { imageRegistry: 'unused' },
    });
    // CloneSet and Advanced StatefulSet (on by default).
    expect(manifests.filter((manifest) => manifest.kind === 'Deployment')).toHaveLength(2);
  });
});
