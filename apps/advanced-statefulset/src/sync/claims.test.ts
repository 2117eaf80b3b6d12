import { describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim, StatefulSetInput } from '@kruise-ts/api';
import { CreatePodsError } from '@kruise-ts/pod-control';
import { podResource, pvcResource } from '@kruise-ts/workload';

import {
  editSpec,
  NAMESPACE,
  settle,
  statefulSet,
  storedPod,
  syncFixture,
  webSpec,
  writes,
} from '../../test/fixtures/sync-fixture.ts';
import type { SyncFixture } from '../../test/fixtures/sync-fixture.ts';
import { scale } from './scale.ts';
import { rollingUpdate } from './update.ts';

type Spec = StatefulSetInput['spec'];
type RetentionPolicy = NonNullable<Spec['persistentVolumeClaimRetentionPolicy']>;

function dataTemplate(storage = '1Gi'): NonNullable<Spec['volumeClaimTemplates']>[number] {
  return { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } };
}

/** `replicas` Parallel pods with a `data` claim each, kept as `retention` says. */
function spec(
  replicas: number,
  input: { retention?: RetentionPolicy; storage?: string; image?: string; extra?: Partial<Spec> } = {},
): Spec {
  const base = webSpec(replicas, {
    podManagementPolicy: 'Parallel',
    volumeClaimTemplates: [dataTemplate(input.storage)],
    ...(input.retention === undefined ? {} : { persistentVolumeClaimRetentionPolicy: input.retention }),
    ...input.extra,
  });
  return input.image === undefined
    ? base
    : { ...base, template: { ...base.template, spec: { containers: [{ name: 'main', image: input.image }] } } };
}

function claimOf(fixture: SyncFixture, name: string): PersistentVolumeClaim | undefined {
  return fixture.fake.objects(pvcResource).find((claim) => claim.metadata?.name === name);
}

function ownersOf(fixture: SyncFixture, name: string): string[] {
  return (claimOf(fixture, name)?.metadata?.ownerReferences ?? []).map((ref) => `${ref.kind}/${ref.name}`);
}

async function scaleOnce(fixture: SyncFixture): Promise<Awaited<ReturnType<typeof scale>>> {
  const state = await fixture.state();
  return scale(fixture.context(), state);
}

/** The volume provisioner: every claim bound with the capacity it requests. */
async function bindClaims(fixture: SyncFixture): Promise<void> {
  for (const claim of fixture.fake.objects(pvcResource)) {
    const storage = claim.spec?.resources?.requests?.['storage'] ?? '';
    await fixture.fake.patchStatus(
      pvcResource,
      { namespace: NAMESPACE, name: claim.metadata?.name ?? '' },
      { type: 'merge', body: { status: { phase: 'Bound', capacity: { storage } } } },
    );
  }
  fixture.fake.clearActions();
}

describe('claims: created before their pod (over the in-memory API)', () => {
  it('creates the ordinal’s claim, then the pod that mounts it', async () => {
    const fixture = syncFixture([statefulSet({ spec: spec(1) })]);
    await scaleOnce(fixture);
    expect(writes(fixture.fake)).toEqual([
      'create persistentvolumeclaims data-web-0',
      'create pods web-0',
      'patch/status pods web-0',
    ]);
    expect(storedPod(fixture.fake, 'web-0').spec?.volumes).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } },
    ]);
    expect(claimOf(fixture, 'data-web-0')).toMatchObject({
      metadata: { labels: { app: 'web' } },
      spec: { resources: { requests: { storage: '1Gi' } } },
    });
  });

  it('reuses the claim a former pod of the ordinal left', async () => {
    const left: PersistentVolumeClaim = {
      metadata: { name: 'data-web-0', namespace: NAMESPACE },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    };
    const fixture = syncFixture([statefulSet({ spec: spec(1) })], { claims: [left] });
    await scaleOnce(fixture);
    expect(writes(fixture.fake).filter((write) => write.startsWith('create'))).toEqual(['create pods web-0']);
  });

  it('makes a pod wait while its claim is being deleted', async () => {
    const deleting: PersistentVolumeClaim = {
      metadata: {
        name: 'data-web-0',
        namespace: NAMESPACE,
        deletionTimestamp: '2026-01-01T00:00:00Z',
        finalizers: ['kubernetes.io/pvc-protection'],
      },
    };
    const fixture = syncFixture([statefulSet({ spec: spec(1) })], { claims: [deleting] });
    const error = await scaleOnce(fixture).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CreatePodsError);
    expect((error as Error).message).toContain('is to be deleted');
    expect(fixture.fake.objects(podResource)).toEqual([]);
  });

  it('creates again the claim of a pending pod that was deleted by hand', async () => {
    const fixture = syncFixture([statefulSet({ spec: spec(1) })]);
    await fixture.reconcile();
    await fixture.fake.delete(pvcResource, { namespace: NAMESPACE, name: 'data-web-0' });
    fixture.fake.clearActions();
    expect(await scaleOnce(fixture)).toMatchObject({ changed: true });
    expect(writes(fixture.fake)).toEqual(['create persistentvolumeclaims data-web-0']);
  });
});

describe('claims: persistentVolumeClaimRetentionPolicy', () => {
  it.each([
    { name: 'Retain/Retain (the default)', retention: undefined, gates: '', owners: [] },
    {
      name: 'whenDeleted Delete',
      retention: { whenDeleted: 'Delete', whenScaled: 'Retain' } as const,
      gates: '',
      owners: ['StatefulSet/web'],
    },
    {
      name: 'whenScaled Delete only',
      retention: { whenDeleted: 'Retain', whenScaled: 'Delete' } as const,
      gates: '',
      owners: [],
    },
    {
      name: 'whenDeleted Delete without the gate',
      retention: { whenDeleted: 'Delete', whenScaled: 'Retain' } as const,
      gates: 'StatefulSetAutoDeletePVC=false',
      owners: [],
    },
  ])('owns a new claim for $name by $owners', async ({ retention, gates, owners }) => {
    const fixture = syncFixture([statefulSet({ spec: spec(1, retention === undefined ? {} : { retention }) })], {
      featureGates: gates,
    });
    await scaleOnce(fixture);
    expect(ownersOf(fixture, 'data-web-0')).toEqual(owners);
  });

  it('hands the claim of a scaled-in pod to that pod under whenScaled Delete, before deleting the pod', async () => {
    const retention = { whenDeleted: 'Retain', whenScaled: 'Delete' } as const;
    const fixture = syncFixture([statefulSet({ spec: spec(2, { retention }) })]);
    await settle(fixture);
    await editSpec(fixture, spec(1, { retention }));
    await scaleOnce(fixture);
    expect(writes(fixture.fake)).toEqual(['patch persistentvolumeclaims data-web-1', 'delete pods web-1']);
    expect(ownersOf(fixture, 'data-web-1')).toEqual(['Pod/web-1']);
    expect(ownersOf(fixture, 'data-web-0')).toEqual([]);
  });

  it('keeps the set as the owner of a scaled-in pod’s claim under whenScaled Retain', async () => {
    const retention = { whenDeleted: 'Delete', whenScaled: 'Retain' } as const;
    const fixture = syncFixture([statefulSet({ spec: spec(2, { retention }) })]);
    await settle(fixture);
    await editSpec(fixture, spec(1, { retention }));
    await scaleOnce(fixture);
    expect(writes(fixture.fake)).toEqual(['delete pods web-1']);
    expect(ownersOf(fixture, 'data-web-1')).toEqual(['StatefulSet/web']);
  });

  it('moves the set’s reference to the claims when the policy changes to whenDeleted Delete', async () => {
    const fixture = syncFixture([statefulSet({ spec: spec(2) })]);
    await settle(fixture);
    await editSpec(fixture, spec(2, { retention: { whenDeleted: 'Delete', whenScaled: 'Retain' } }));
    await scaleOnce(fixture);
    expect(writes(fixture.fake)).toEqual([
      'patch persistentvolumeclaims data-web-0',
      'patch persistentvolumeclaims data-web-1',
    ]);
    expect(ownersOf(fixture, 'data-web-1')).toEqual(['StatefulSet/web']);
  });

  it('does not create a pod whose claim still belongs to the deleted pod of that ordinal (waits for its collection)', async () => {
    const retention = { whenDeleted: 'Retain', whenScaled: 'Delete' } as const;
    const fixture = syncFixture([statefulSet({ spec: spec(2, { retention }) })]);
    await settle(fixture);
    await editSpec(fixture, spec(1, { retention }));
    await scaleOnce(fixture);
    // The garbage collector has not removed data-web-1 yet when the set grows again.
    await editSpec(fixture, spec(2, { retention }));
    expect(await scaleOnce(fixture)).toEqual({ changed: false, stop: true });
    expect(fixture.fake.writes()).toEqual([]);

    await fixture.fake.delete(pvcResource, { namespace: NAMESPACE, name: 'data-web-1' });
    fixture.fake.clearActions();
    await scaleOnce(fixture);
    expect(writes(fixture.fake).filter((write) => write.startsWith('create'))).toEqual([
      'create persistentvolumeclaims data-web-1',
      'create pods web-1',
    ]);
  });
});

describe('claims: volumeClaimUpdateStrategy OnPodRollingUpdate', () => {
  const resizing = { volumeClaimUpdateStrategy: { type: 'OnPodRollingUpdate' } } as const;

  async function grown(input: { image?: string; gates?: string }): Promise<SyncFixture> {
    const fixture = syncFixture([statefulSet({ spec: spec(1, { extra: resizing }) })], {
      featureGates: input.gates ?? 'StatefulSetAutoResizePVCGate=true',
    });
    await settle(fixture);
    await bindClaims(fixture);
    await editSpec(
      fixture,
      spec(1, { storage: '2Gi', extra: resizing, ...(input.image === undefined ? {} : { image: input.image }) }),
    );
    return fixture;
  }

  async function updateOnce(fixture: SyncFixture): Promise<Awaited<ReturnType<typeof rollingUpdate>>> {
    const state = await fixture.state();
    return rollingUpdate(fixture.context(), state);
  }

  it('expands the pod’s claims first, and updates the pod only once the expansion completed', async () => {
    const fixture = await grown({ image: 'nginx:1.26' });
    expect(await updateOnce(fixture)).toEqual({ changed: true });
    expect(writes(fixture.fake)).toEqual(['patch persistentvolumeclaims data-web-0']);
    expect(claimOf(fixture, 'data-web-0')?.spec?.resources?.requests?.['storage']).toBe('2Gi');
    expect(fixture.recorder.reasons()).toEqual(['SuccessfulResize']);

    fixture.fake.clearActions();
    expect(await updateOnce(fixture)).toEqual({ changed: false });
    expect(fixture.fake.writes()).toEqual([]);

    await bindClaims(fixture);
    await updateOnce(fixture);
    expect(writes(fixture.fake)).toEqual(['delete pods web-0']);
  });

  it('expands the claims of a pod already at the update revision, and leaves the pod', async () => {
    const fixture = await grown({});
    await updateOnce(fixture);
    expect(writes(fixture.fake)).toEqual(['patch persistentvolumeclaims data-web-0']);
    await bindClaims(fixture);
    expect(await updateOnce(fixture)).toEqual({ changed: false });
    expect(fixture.fake.writes()).toEqual([]);
  });

  it('leaves the claims as they are without the gate', async () => {
    const fixture = await grown({ gates: '' });
    await updateOnce(fixture);
    expect(fixture.fake.writes()).toEqual([]);
  });
});
