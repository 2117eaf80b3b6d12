import { describe, expect, it } from 'vitest';

import { PreconditionError } from '../cli/cli-errors.ts';
import { cloneSetManifest } from './cloneset-manifest.ts';
import { MIGRATION_ANNOTATION } from './migration-record.ts';
import { cloneSetObjectSchema, deploymentSchema } from './objects.ts';
import type { CloneSetObject, Deployment } from './objects.ts';
import { checkStart } from './preconditions.ts';
import type { Names } from './preconditions.ts';

const names: Names = {
  deployment: 'deployments.apps "web"',
  cloneSet: 'clonesets.apps.kruise.io "web"',
  deploymentArg: 'deployment/web',
};

interface DeploymentState {
  readonly replicas?: number;
  readonly generation?: number;
  readonly paused?: boolean;
  readonly image?: string;
  readonly status?: Record<string, number>;
}

/** A Deployment of `replicas` pods, settled unless `status` says otherwise. */
function deployment(state: DeploymentState = {}): Deployment {
  const replicas = state.replicas ?? 10;
  const generation = state.generation ?? 2;
  return deploymentSchema.parse(
    JSON.parse(
      JSON.stringify({
        metadata: { name: 'web', namespace: 'team', uid: 'uid-web', generation },
        spec: {
          replicas,
          paused: state.paused,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'nginx', image: state.image ?? 'nginx:1.25' }] },
          },
        },
        status: {
          observedGeneration: generation,
          replicas,
          updatedReplicas: replicas,
          readyReplicas: replicas,
          availableReplicas: replicas,
          ...state.status,
        },
      }),
    ),
  );
}

/** The CloneSet an earlier run made from `source`, now at `replicas` with `available` of them available. */
function earlierCloneSet(source: Deployment, replicas: number, available: number): CloneSetObject {
  const manifest = cloneSetManifest(source, 'web');
  return cloneSetObjectSchema.parse({
    ...manifest,
    metadata: { ...manifest.metadata, uid: 'uid-cs', generation: 4 },
    spec: { ...manifest.spec, replicas },
    status: { observedGeneration: 4, availableReplicas: available },
  });
}

function refusal(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    if (error instanceof PreconditionError) {
      return error.message;
    }
    throw error;
  }
  throw new Error('no PreconditionError');
}

describe('checkStart of a new migration', () => {
  it('starts from the settled Deployment: all its pods move, none may be lost', () => {
    expect(checkStart(deployment(), undefined, names)).toEqual({
      resume: false,
      target: 10,
      current: { cloneSet: 0, deployment: 10 },
      available: 10,
    });
  });

  it('keeps the available count of a Deployment that is not fully available', () => {
    expect(
      checkStart(deployment({ status: { availableReplicas: 7, readyReplicas: 8 } }), undefined, names).available,
    ).toBe(7);
  });

  it.each<[string, DeploymentState, string]>([
    [
      'paused',
      { paused: true },
      'deployments.apps "web" is paused: resume it first (kubectl rollout resume deployment/web)',
    ],
    ['scaled to 0', { replicas: 0 }, 'deployments.apps "web" has 0 replicas: there are no pods to migrate'],
    [
      'mid-rollout',
      { status: { replicas: 12, updatedReplicas: 4 } },
      'deployments.apps "web" is in the middle of a rollout or scaling (10 desired, 12 current, 4 updated): wait until kubectl rollout status deployment/web reports it done',
    ],
    [
      'mid-scale',
      { status: { replicas: 7, updatedReplicas: 7 } },
      'deployments.apps "web" is in the middle of a rollout or scaling (10 desired, 7 current, 7 updated): wait until kubectl rollout status deployment/web reports it done',
    ],
    [
      'not yet observed by its controller',
      { status: { observedGeneration: 1 } },
      'deployments.apps "web" is in the middle of a rollout or scaling (10 desired, 10 current, 10 updated, its latest change not yet observed): wait until kubectl rollout status deployment/web reports it done',
    ],
  ])('refuses a Deployment %s', (_case, state, message) => {
    expect(refusal(() => checkStart(deployment(state), undefined, names))).toBe(message);
  });

  it('refuses a CloneSet of that name that no migration of this Deployment made', () => {
    const foreign = cloneSetObjectSchema.parse({
      metadata: { name: 'web', uid: 'uid-cs', generation: 1 },
      spec: { replicas: 3 },
    });
    const otherDeployment = earlierCloneSet(deployment(), 0, 0);
    const recreated = cloneSetObjectSchema.parse({
      ...otherDeployment,
      metadata: {
        ...otherDeployment.metadata,
        annotations: {
          [MIGRATION_ANNOTATION]: (otherDeployment.metadata.annotations?.[MIGRATION_ANNOTATION] ?? '').replace(
            'uid-web',
            'uid-old',
          ),
        },
      },
    });
    const garbled = cloneSetObjectSchema.parse({
      ...foreign,
      metadata: { ...foreign.metadata, annotations: { [MIGRATION_ANNOTATION]: '{not json' } },
    });
    for (const cloneSet of [foreign, recreated, garbled]) {
      expect(refusal(() => checkStart(deployment(), cloneSet, names))).toBe(
        'clonesets.apps.kruise.io "web" already exists and was not created by a migration of deployments.apps "web": choose another name with --name',
      );
    }
  });
});

describe('checkStart of an interrupted migration', () => {
  it('resumes where the replicas stand, towards the count recorded at the start', () => {
    const source = deployment();
    const now = deployment({ replicas: 6, generation: 6 });
    expect(checkStart(now, earlierCloneSet(source, 5, 4), names)).toEqual({
      resume: true,
      target: 10,
      current: { cloneSet: 5, deployment: 6 },
      available: 10,
    });
  });

  it('keeps no more than the target available: the surge of an interrupted step goes', () => {
    const now = deployment({ replicas: 7, generation: 6 });
    expect(checkStart(now, earlierCloneSet(deployment(), 4, 4), names).available).toBe(10);
  });

  it('resumes while the Deployment is still scaling down', () => {
    const now = deployment({
      replicas: 6,
      generation: 6,
      status: { observedGeneration: 5, replicas: 7, updatedReplicas: 7, availableReplicas: 7 },
    });
    expect(checkStart(now, earlierCloneSet(deployment(), 4, 4), names).current).toEqual({ cloneSet: 4, deployment: 6 });
  });

  it('resumes a migration that only has its last wait left', () => {
    const now = deployment({ replicas: 0, generation: 12 });
    expect(checkStart(now, earlierCloneSet(deployment(), 10, 10), names)).toMatchObject({
      resume: true,
      target: 10,
      current: { cloneSet: 10, deployment: 0 },
    });
  });

  it.each<[string, DeploymentState & { cloneSetReplicas?: number }, string]>([
    [
      'paused',
      { paused: true },
      'deployments.apps "web" is paused: resume it first (kubectl rollout resume deployment/web)',
    ],
    [
      'whose template changed',
      { image: 'nginx:1.27' },
      'the template of deployments.apps "web" changed after clonesets.apps.kruise.io "web" was created from it: the CloneSet runs the old template, so the migration does not go on',
    ],
    [
      'mid-rollout',
      { replicas: 7, status: { replicas: 9, updatedReplicas: 2 } },
      'deployments.apps "web" is in the middle of a rollout (7 desired, 9 current, 2 updated): wait until kubectl rollout status deployment/web reports it done',
    ],
    [
      'whose CloneSet was scaled beyond the target',
      { replicas: 0, cloneSetReplicas: 12 },
      'clonesets.apps.kruise.io "web" has 12 replicas, more than the 10 its migration moves: it was scaled outside the migration',
    ],
  ])('refuses a Deployment %s', (_case, state, message) => {
    expect(
      refusal(() =>
        checkStart(deployment(state), earlierCloneSet(deployment(), state.cloneSetReplicas ?? 3, 0), names),
      ),
    ).toBe(message);
  });
});
