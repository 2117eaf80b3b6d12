import { describe, expect, it } from 'vitest';

import { cloneSetManifest, updateStrategyOf } from './cloneset-manifest.ts';
import { decodeRecord, MIGRATION_ANNOTATION, templateHash } from './migration-record.ts';
import { deploymentSchema } from './objects.ts';
import type { Deployment } from './objects.ts';

/** A Deployment as the API server returns one (defaulted fields included); an undefined field is left out. */
function deployment(spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Deployment {
  return deploymentSchema.parse(
    jsonOf({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        namespace: 'team',
        uid: 'uid-web',
        generation: 3,
        resourceVersion: '42',
        labels: { app: 'web', tier: 'front' },
        annotations: { 'deployment.kubernetes.io/revision': '2' },
        ...metadata,
      },
      spec: {
        replicas: 10,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: {
            creationTimestamp: null,
            labels: { app: 'web' },
            annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' },
          },
          spec: {
            containers: [{ name: 'nginx', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent' }],
            restartPolicy: 'Always',
          },
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        minReadySeconds: 5,
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        ...spec,
      },
      status: { observedGeneration: 3, replicas: 10, updatedReplicas: 10, readyReplicas: 10, availableReplicas: 10 },
    }),
  );
}

function jsonOf(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

describe('cloneSetManifest', () => {
  it('copies the selector, the template and the settings that mean the same, with 0 replicas', () => {
    const manifest = cloneSetManifest(deployment(), 'web');
    expect(manifest).toEqual({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: {
        name: 'web',
        namespace: 'team',
        labels: { app: 'web', tier: 'front' },
        annotations: { [MIGRATION_ANNOTATION]: expect.any(String) as string },
      },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: {
            labels: { app: 'web' },
            annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' },
          },
          spec: {
            containers: [{ name: 'nginx', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent' }],
            restartPolicy: 'Always',
          },
        },
        minReadySeconds: 5,
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        updateStrategy: { type: 'ReCreate', maxSurge: '25%', maxUnavailable: '25%' },
      },
    });
  });

  it("records the Deployment's uid, its replicas and its template's hash", () => {
    const source = deployment();
    const record = decodeRecord(cloneSetManifest(source, 'web-cs').metadata.annotations[MIGRATION_ANNOTATION]);
    expect(record).toEqual({
      deployment: 'web',
      uid: 'uid-web',
      replicas: 10,
      templateHash: expect.stringMatching(/^[0-9a-f]{16}$/) as string,
    });
    // The hash is of the template as copied (no creationTimestamp), whatever the order of its keys.
    const reordered = {
      spec: source.spec.template.spec,
      metadata: {
        annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' },
        labels: { app: 'web' },
      },
    };
    expect(record?.templateHash).toBe(templateHash(reordered));
  });

  it('takes another name, and leaves out what the Deployment does not set', () => {
    const source = deployment(
      { minReadySeconds: undefined, revisionHistoryLimit: undefined, progressDeadlineSeconds: undefined },
      { labels: undefined },
    );
    const manifest = cloneSetManifest(source, 'web-cs');
    expect(manifest.metadata.name).toBe('web-cs');
    expect(manifest.metadata).not.toHaveProperty('labels');
    expect(Object.keys(manifest.spec)).toEqual(['replicas', 'selector', 'template', 'updateStrategy']);
  });

  it('does not share objects with the Deployment', () => {
    const source = deployment();
    const manifest = cloneSetManifest(source, 'web');
    expect(manifest.spec.template).not.toBe(source.spec.template);
    expect(manifest.spec.selector).not.toBe(source.spec.selector);
    expect(source.spec.template.metadata).toHaveProperty('creationTimestamp', null);
  });
});

describe('updateStrategyOf', () => {
  it.each([
    [
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      { type: 'ReCreate', maxSurge: '25%', maxUnavailable: '25%' },
    ],
    [
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
      { type: 'ReCreate', maxSurge: 0, maxUnavailable: 1 },
    ],
    [
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2 } },
      { type: 'ReCreate', maxSurge: 2 },
    ],
    [{ type: 'RollingUpdate' }, { type: 'ReCreate' }],
    [undefined, { type: 'ReCreate' }],
    [{ type: 'Recreate' }, { type: 'ReCreate', maxSurge: 0, maxUnavailable: '100%' }],
  ])('%j becomes %j', (strategy, expected) => {
    expect(updateStrategyOf(deployment({ strategy }))).toEqual(expected);
  });
});
