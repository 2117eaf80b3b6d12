import type { PodTemplateSpec } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';

import { controllerRevisionResource, newControllerRevision } from './controller-revision.ts';
import { marshalGoJson } from './go-json.ts';
import { revisionData } from './revision-data.ts';

const owner = {
  name: 'sample',
  namespace: 'ns',
  uid: 'uid-1',
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
};
const template: PodTemplateSpec = {
  metadata: { labels: { app: 'sample' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
};

describe('newControllerRevision', () => {
  it('builds the object OpenKruise builds', () => {
    const revision = newControllerRevision({
      owner,
      template,
      ownerAnnotations: { note: 'x' },
      collisionCount: 0,
      revision: 3,
    });
    expect(revision).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: 'sample-597d4cb8fd',
        namespace: 'ns',
        labels: { app: 'sample', 'controller.kubernetes.io/hash': '597d4cb8fd' },
        annotations: { note: 'x' },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            name: 'sample',
            uid: 'uid-1',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      data: JSON.parse(revisionData(template)) as unknown,
      revision: 3,
    });
    expect(marshalGoJson(revision.data)).toBe(revisionData(template));
  });

  it('puts the collision count into the hash and the name', () => {
    const revision = newControllerRevision({ owner, template, collisionCount: 1, revision: 1 });
    expect(revision.metadata?.name).toBe('sample-597d4cb8ff');
    expect(revision.metadata?.labels?.['controller.kubernetes.io/hash']).toBe('597d4cb8ff');
    expect(revision.metadata?.annotations).toEqual({});
  });

  it('does not share the template labels object', () => {
    const revision = newControllerRevision({ owner, template, collisionCount: 0, revision: 1 });
    expect(revision.metadata?.labels).not.toBe(template.metadata?.labels);
    expect(template.metadata?.labels).toEqual({ app: 'sample' });
  });
});

describe('controllerRevisionResource', () => {
  it('is apps/v1 controllerrevisions, namespaced', () => {
    expect(controllerRevisionResource).toMatchObject({
      group: 'apps',
      version: 'v1',
      plural: 'controllerrevisions',
      kind: 'ControllerRevision',
      namespaced: true,
    });
  });
});
