import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { claimTemplateMapping, podTemplateMapping, prefixMapping } from './field-mapping.ts';

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-xxxxx' },
  spec: {
    containers: [{ name: 'main', image: 'nginx' }],
    volumes: [
      { name: 'config', configMap: { name: 'c' } },
      // A template volume named like a claim template: replaced in place by the claim volume.
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-xxxxx' } },
      { name: 'logs', persistentVolumeClaim: { claimName: 'logs-web-xxxxx' } },
      // The user's own claim volume, not from a claim template.
      { name: 'shared', persistentVolumeClaim: { claimName: 'shared' } },
    ],
  },
};

describe('podTemplateMapping', () => {
  const mapping = podTemplateMapping(pod, ['data', 'logs'], {
    template: 'spec.template',
    claimTemplates: 'spec.volumeClaimTemplates',
    name: 'metadata.name',
  });
  it.each([
    ['spec.containers[0].name', 'spec.template.spec.containers[0].name'],
    ['spec.containers[0].ports[1].containerPort', 'spec.template.spec.containers[0].ports[1].containerPort'],
    ['metadata.labels', 'spec.template.metadata.labels'],
    ['metadata.annotations', 'spec.template.metadata.annotations'],
    ['metadata.name', 'metadata.name'],
    ['metadata.generateName', 'metadata.name'],
    ['spec.volumes[0].name', 'spec.template.spec.volumes[0].name'],
    ['spec.volumes[1].name', 'spec.volumeClaimTemplates[0].metadata.name'],
    ['spec.volumes[2].persistentVolumeClaim.claimName', 'spec.volumeClaimTemplates[1].metadata.name'],
    ['spec.volumes[3].name', 'spec.template.spec.volumes[3].name'],
    ['spec.volumes[9].name', 'spec.template.spec.volumes[9].name'],
    ['spec', 'spec.template.spec'],
    ['', 'spec.template'],
  ])('%s -> %s', (from, to) => {
    expect(mapping(from)).toBe(to);
  });
});

describe('claimTemplateMapping', () => {
  const mapping = claimTemplateMapping('spec.volumeClaimTemplates', 2);
  it.each([
    ['spec.resources.requests[storage]', 'spec.volumeClaimTemplates[2].spec.resources.requests[storage]'],
    ['metadata.name', 'spec.volumeClaimTemplates[2].metadata.name'],
    ['metadata.labels', 'spec.volumeClaimTemplates[2].metadata.labels'],
    ['', 'spec.volumeClaimTemplates[2]'],
  ])('%s -> %s', (from, to) => {
    expect(mapping(from)).toBe(to);
  });
});

describe('prefixMapping', () => {
  const mapping = prefixMapping(
    [
      { from: 'spec.containers', to: 'spec.containers' },
      { from: 'spec.volumes', to: 'spec.volumes' },
    ],
    'spec',
  );
  it.each([
    ['spec.containers[1].image', 'spec.containers[1].image'],
    ['spec.volumes', 'spec.volumes'],
    ['spec.containersX', 'spec'],
    ['metadata.name', 'spec'],
  ])('%s -> %s', (from, to) => {
    expect(mapping(from)).toBe(to);
  });
});
