import { parseFeatureGates } from '@kruise-ts/app-config';
import { describe, expect, it } from 'vitest';

import { statefulSet, webSpec } from '../../test/fixtures/reconcile-fixture.ts';
import { podShapeOf, statefulSetValidationTarget, targetOrdinal } from './validation-target.ts';

const defaultShape = podShapeOf(parseFeatureGates(''));
const claimTemplate = {
  metadata: { name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
};

describe('statefulSetValidationTarget', () => {
  const set = statefulSet({ spec: webSpec(3, { volumeClaimTemplates: [claimTemplate] }) });
  const target = statefulSetValidationTarget(set, defaultShape);

  it('is the pod the controller makes for the highest ordinal, without owner references', () => {
    const { metadata, spec } = target.pod;
    // As long as the real name, but not the name of a pod the set has: a dry run of that would be refused as AlreadyExists.
    expect(metadata?.name).toBe('web-x');
    expect(metadata?.namespace).toBe('ns');
    expect(metadata?.ownerReferences).toBeUndefined();
    expect(metadata?.labels).toEqual({
      app: 'web',
      'controller-revision-hash': 'web-xxxxxxxxxx',
      'statefulset.kubernetes.io/pod-name': 'web-2',
      'apps.kubernetes.io/pod-index': '2',
      'lifecycle.apps.kruise.io/state': 'Normal',
    });
    expect(metadata?.annotations).toEqual({ 'lifecycle.apps.kruise.io/timestamp': '1970-01-01T00:00:00Z' });
    expect(spec?.hostname).toBe('web-2');
    expect(spec?.subdomain).toBe('web');
    expect(spec?.readinessGates).toEqual([{ conditionType: 'KruisePodReady' }]);
    expect(spec?.volumes).toEqual([{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-2' } }]);
  });

  it('has the claim of that ordinal, labelled with the selector, without owner references', () => {
    expect(target.claims.map(({ claim }) => claim)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data-web-x', namespace: 'ns', labels: { app: 'web' } },
        spec: claimTemplate.spec,
      },
    ]);
  });

  it('gives the same pod for the same spec (one cache key)', () => {
    expect(statefulSetValidationTarget(set, defaultShape).pod).toEqual(target.pod);
  });

  it.each([
    [1, 'web-x', 'web-0'],
    [10, 'web-x', 'web-9'],
    [11, 'web-xx', 'web-10'],
    [101, 'web-xxx', 'web-100'],
  ])('with %i replicas is named %s (as long as %s, its hostname)', (replicas, name, hostname) => {
    const { pod, claims } = statefulSetValidationTarget(
      statefulSet({ spec: webSpec(replicas, { volumeClaimTemplates: [claimTemplate] }) }),
      defaultShape,
    );
    expect(pod.metadata?.name).toBe(name);
    expect(pod.spec?.hostname).toBe(hostname);
    expect(pod.metadata?.labels?.['statefulset.kubernetes.io/pod-name']).toBe(hostname);
    expect(claims.map(({ claim }) => claim.metadata?.name)).toEqual([`data-${name}`]);
  });

  it.each([
    ['spec.containers[0].name', 'spec.template.spec.containers[0].name'],
    ['metadata.labels', 'spec.template.metadata.labels'],
    ['spec.volumes[0].persistentVolumeClaim.claimName', 'spec.volumeClaimTemplates[0].metadata.name'],
    ['metadata.name', 'metadata.name'],
    ['spec.hostname', 'metadata.name'],
    ['spec.subdomain', 'spec.serviceName'],
    ['', 'spec.template'],
  ])('maps the pod field %s to the set field %s', (field, mapped) => {
    expect(target.podMapping(field)).toBe(mapped);
  });

  it.each([
    ['spec.resources.requests[storage]', 'spec.volumeClaimTemplates[0].spec.resources.requests[storage]'],
    ['metadata.name', 'spec.volumeClaimTemplates[0].metadata.name'],
  ])('maps the claim field %s to the set field %s', (field, mapped) => {
    expect(target.claims[0]?.mapping(field)).toBe(mapped);
  });

  it('keeps a template volume of the claim template name at its index', () => {
    const withVolumes = statefulSet({
      spec: webSpec(1, {
        volumeClaimTemplates: [claimTemplate],
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'main', image: 'nginx' }], volumes: [{ name: 'cache', emptyDir: {} }] },
        },
      }),
    });
    const mapping = statefulSetValidationTarget(withVolumes, defaultShape).podMapping;
    expect(mapping('spec.volumes[0].emptyDir')).toBe('spec.template.spec.volumes[0].emptyDir');
    expect(mapping('spec.volumes[1].name')).toBe('spec.volumeClaimTemplates[0].metadata.name');
  });
});

describe('targetOrdinal', () => {
  it.each([
    // replicas, ordinals.start, reserveOrdinals, gate StatefulSetStartOrdinal ⇒ ordinal
    [3, undefined, [], false, 2],
    [0, undefined, [], false, 0],
    [3, 5, [], true, 7],
    [3, 5, [], false, 2],
    [3, undefined, [1], false, 3],
    [10, undefined, ['0-2'], false, 12],
    [2, undefined, ['x'], false, 1],
  ])('%i replicas from %s reserving %j (gate %s) ⇒ %i', (...row) => {
    const [replicas, start, reserveOrdinals, startOrdinal, expected] = row;
    const set = statefulSet({
      spec: webSpec(replicas, { reserveOrdinals, ...(start === undefined ? {} : { ordinals: { start } }) }),
    });
    expect(targetOrdinal(set, { startOrdinal, podIndexLabel: true })).toBe(expected);
  });
});
