import { describe, expect, it } from 'vitest';

import type { OwnerReference, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/controller-runtime';

import {
  attachClaimVolumes,
  claimName,
  identitySuffix,
  newClaims,
  newClaimsForInstance,
  pvcsOfInstance,
} from './claims.ts';

const controllerRef: OwnerReference = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  name: 'web',
  uid: 'cs-uid',
  controller: true,
  blockOwnerDeletion: true,
};
const templates = deepFreeze<PersistentVolumeClaim[]>([
  {
    metadata: { name: 'data', labels: { tier: 'db', app: 'template-value' }, annotations: { note: 'kept' } },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    status: { phase: 'Pending' },
  },
  {
    metadata: { name: 'logs' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '100Mi' } } },
  },
]);

describe('claimName', () => {
  it('is <template>-<owner>-<id>', () => {
    expect(claimName('data', 'web', 'x7k2p')).toBe('data-web-x7k2p');
  });
});

describe('newClaimsForInstance', () => {
  const claims = newClaimsForInstance({
    owner: { name: 'web', namespace: 'ns', controllerRef },
    volumeClaimTemplates: templates,
    instanceId: 'x7k2p',
    selectorLabels: { app: 'web' },
  });

  it('builds one claim per template with name, namespace, labels and owner', () => {
    expect(claims).toHaveLength(2);
    expect(claims[0]).toEqual({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'data-web-x7k2p',
        namespace: 'ns',
        labels: { tier: 'db', app: 'web', 'apps.kruise.io/cloneset-instance-id': 'x7k2p' },
        annotations: { note: 'kept' },
        ownerReferences: [controllerRef],
      },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    expect(claims[1]?.metadata).toEqual({
      name: 'logs-web-x7k2p',
      namespace: 'ns',
      labels: { app: 'web', 'apps.kruise.io/cloneset-instance-id': 'x7k2p' },
      ownerReferences: [controllerRef],
    });
  });

  it('returns new objects that can be changed without touching the templates', () => {
    const spec = claims[0]?.spec;
    expect(spec).toBeDefined();
    expect(Object.isFrozen(spec)).toBe(false);
    expect(spec).not.toBe(templates[0]?.spec);
  });
});

describe('attachClaimVolumes', () => {
  const podSpec = deepFreeze<NonNullable<Pod['spec']>>({
    containers: [{ name: 'c', image: 'nginx' }],
    volumes: [
      { name: 'config', configMap: { name: 'cfg' } },
      { name: 'data', emptyDir: {} },
    ],
  });

  it('replaces a template volume of the same name and appends the others', () => {
    const spec = attachClaimVolumes(podSpec, { volumeClaimTemplates: templates, ownerName: 'web', id: 'x7k2p' });
    expect(spec.volumes).toEqual([
      { name: 'config', configMap: { name: 'cfg' } },
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-x7k2p' } },
      { name: 'logs', persistentVolumeClaim: { claimName: 'logs-web-x7k2p' } },
    ]);
    expect(spec.containers).toEqual(podSpec.containers);
    expect(podSpec.volumes?.[1]).toEqual({ name: 'data', emptyDir: {} });
  });

  it('leaves a spec without templates alone', () => {
    expect(attachClaimVolumes(podSpec, { volumeClaimTemplates: [], ownerName: 'web', id: 'x' })).toEqual(podSpec);
    expect(attachClaimVolumes({ containers: [] }, { volumeClaimTemplates: [], ownerName: 'web', id: 'x' })).toEqual({
      containers: [],
    });
  });

  it('adds volumes to a spec that had none', () => {
    const spec = attachClaimVolumes(
      { containers: [] },
      { volumeClaimTemplates: templates.slice(1), ownerName: 'web', id: 'abcde' },
    );
    expect(spec.volumes).toEqual([{ name: 'logs', persistentVolumeClaim: { claimName: 'logs-web-abcde' } }]);
  });
});

describe('pvcsOfInstance', () => {
  it('selects the claims with the instance id', () => {
    const pvcs = ['a', 'b', 'a'].map((id, i) => ({
      metadata: { name: `pvc-${String(i)}`, labels: { 'apps.kruise.io/cloneset-instance-id': id } },
    }));
    expect(pvcsOfInstance(pvcs, 'a').map((pvc) => pvc.metadata.name)).toEqual(['pvc-0', 'pvc-2']);
    expect(pvcsOfInstance(pvcs, 'c')).toEqual([]);
  });
});

describe('newClaims with an ordinal (Advanced StatefulSet)', () => {
  it('names claims <template>-<owner>-<ordinal>, without the instance-id label, selector labels winning', () => {
    const [claim] = newClaims({
      owner: { name: 'db', namespace: 'ns' },
      volumeClaimTemplates: templates,
      identity: { kind: 'ordinal', ordinal: 3 },
      selectorLabels: { app: 'db' },
      ownerReferences: [],
    });
    expect(claim?.metadata?.name).toBe('data-db-3');
    expect(claim?.metadata?.labels).toEqual({ tier: 'db', app: 'db' });
    expect(claim?.metadata?.ownerReferences).toBeUndefined();
  });

  it('appends the given owner references', () => {
    const [claim] = newClaims({
      owner: { name: 'db', namespace: 'ns' },
      volumeClaimTemplates: templates,
      identity: { kind: 'ordinal', ordinal: 0 },
      selectorLabels: {},
      ownerReferences: [controllerRef],
    });
    expect(claim?.metadata?.ownerReferences).toEqual([controllerRef]);
  });

  it.each([
    [{ kind: 'ordinal', ordinal: 0 } as const, '0'],
    [{ kind: 'ordinal', ordinal: 12 } as const, '12'],
    [{ kind: 'instanceId', id: 'x7k2p' } as const, 'x7k2p'],
  ])('%o has the name suffix %s', (identity, suffix) => {
    expect(identitySuffix(identity)).toBe(suffix);
  });
});
