import { describe, expect, it } from 'vitest';

import type { CloneSet } from '@kruise-ts/api';
import { TerminalError } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
import { controllerRevisionResource, newControllerRevision } from '@kruise-ts/revision';
import { podResource } from '@kruise-ts/workload';

import {
  cloneSet,
  editSpec,
  NAMESPACE,
  podNames,
  runPods,
  settle,
  syncFixture,
  webSpec,
} from '../test/fixtures/sync-fixture.ts';
import type { SyncFixture } from '../test/fixtures/sync-fixture.ts';
import { cloneSetResource } from './cloneset-resource.ts';

function stored(fixture: SyncFixture): CloneSet {
  const [cs] = fixture.fake.objects(cloneSetResource);
  if (cs === undefined) {
    throw new Error('no CloneSet');
  }
  return cs;
}

function condition(
  fixture: SyncFixture,
  type: string,
): NonNullable<NonNullable<CloneSet['status']>['conditions']>[number] | undefined {
  return stored(fixture).status?.conditions?.find((c) => c.type === type);
}

function statusWrites(fixture: SyncFixture): number {
  return fixture.fake.writes().filter((action) => action.resource === 'clonesets' && action.subresource === 'status')
    .length;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('CloneSetReconciler (over the in-memory API)', () => {
  it('reports a refused creation in FailedScale and throws for the backoff; the same cause writes the status once', async () => {
    const fixture = syncFixture([cloneSet({ spec: webSpec(2) })]);
    fixture.fake.prependReactor({ verb: 'create', resource: 'pods' }, (action) => {
      throw fakeApiError({
        code: 422,
        reason: 'Invalid',
        message: `Pod "${action.name}" is invalid: spec.containers[0].name: Invalid value: "Main"`,
        name: action.name,
        kind: 'Pod',
      });
    });
    const first = await failure(fixture.reconcile());
    expect(first).toBeInstanceOf(Error);
    expect(first).not.toBeInstanceOf(TerminalError);
    expect(condition(fixture, 'FailedScale')?.message).toBe(
      'failed to create 2 of 2 pods: Pod "web-" is invalid: spec.containers[0].name: Invalid value: "Main"',
    );
    expect(statusWrites(fixture)).toBe(1);

    // The retry tries other pod names and fails the same way: no status write, so no watch event
    // that would reconcile the CloneSet again before its backoff.
    fixture.fake.clearActions();
    await expect(fixture.reconcile()).rejects.toThrow('failed to create 2 of 2 pods');
    expect(statusWrites(fixture)).toBe(0);
    expect(
      fixture.fake
        .writes()
        .filter((action) => action.resource === 'pods')
        .map((action) => action.verb),
    ).toEqual(['create']);
  });

  it('clears FailedScale once creations go through', async () => {
    const fixture = syncFixture([cloneSet({ spec: webSpec(1) })]);
    let refuse = true;
    fixture.fake.prependReactor({ verb: 'create', resource: 'pods' }, () => {
      if (refuse) {
        throw fakeApiError({ code: 403, reason: 'Forbidden', message: 'exceeded quota' });
      }
      return undefined;
    });
    await failure(fixture.reconcile());
    expect(condition(fixture, 'FailedScale')?.status).toBe('True');
    refuse = false;
    await fixture.reconcile();
    expect(condition(fixture, 'FailedScale')).toBeUndefined();
  });

  it('reports an undecodable template with the field, moves observedGeneration, writes no pod and does not retry', async () => {
    const fixture = syncFixture([cloneSet({ spec: webSpec(2) })]);
    await settle(fixture);
    const spec = webSpec(2);
    await editSpec(fixture, {
      ...spec,
      template: {
        ...spec.template,
        spec: { containers: [{ name: 'main', image: 'nginx:1.25' }], terminationGracePeriodSeconds: 'thirty' },
      } as never,
    });
    fixture.fake.clearActions();
    await expect(fixture.reconcile()).rejects.toBeInstanceOf(TerminalError);
    const cs = stored(fixture);
    expect(cs.status?.observedGeneration).toBe(cs.metadata.generation);
    expect(condition(fixture, 'FailedScale')).toMatchObject({
      status: 'True',
      reason: 'InvalidTemplate',
      message: expect.stringContaining('spec.template.spec.terminationGracePeriodSeconds') as unknown,
    });
    expect(
      fixture.fake.writes().map((action) => `${action.verb}/${action.subresource ?? ''} ${action.resource}`),
    ).toEqual(['patch/status clonesets']);
    expect(fixture.recorder.events).toMatchObject([{ type: 'Warning', reason: 'FailedCreate' }]);

    // Reconciled again in the same state: no second Event, no write.
    fixture.fake.clearActions();
    await expect(fixture.reconcile()).rejects.toBeInstanceOf(TerminalError);
    expect(fixture.fake.writes()).toEqual([]);
    expect(fixture.recorder.events).toHaveLength(1);
  });

  it('ReCreate: one reconcile creates the missing pod and deletes the next ones within maxUnavailable', async () => {
    const strategy = { type: 'ReCreate' as const, maxUnavailable: 3, maxSurge: 0 };
    const fixture = syncFixture([cloneSet({ spec: webSpec(12, { updateStrategy: strategy }) })]);
    await settle(fixture, 20);
    const [gone] = podNames(fixture);
    await fixture.fake.delete(podResource, { namespace: NAMESPACE, name: gone ?? '' });
    await editSpec(fixture, webSpec(12, { updateStrategy: strategy }, 'nginx:1.27'));
    fixture.fake.clearActions();
    await fixture.reconcile();
    const podVerbs = fixture.fake
      .writes()
      .filter((action) => action.resource === 'pods' && action.subresource === undefined)
      .map((action) => action.verb);
    expect(podVerbs.filter((verb) => verb === 'create')).toHaveLength(1);
    expect(podVerbs.filter((verb) => verb === 'delete')).toHaveLength(2);
  });

  it('adopts orphaned revisions whose labels match, instead of creating them again', async () => {
    const cs = cloneSet({ spec: webSpec(1) });
    const fixture = syncFixture([cs]);
    const orphan = newControllerRevision({
      owner: { name: 'web', namespace: NAMESPACE, uid: 'old-uid', apiVersion: cs.apiVersion, kind: cs.kind },
      template: cs.spec.template,
      collisionCount: 0,
      revision: 1,
    });
    fixture.fake.seed(controllerRevisionResource, [
      { ...orphan, metadata: { ...orphan.metadata, ownerReferences: [] } },
    ]);
    await fixture.reconcile();
    const revisionWrites = fixture.fake.writes().filter((action) => action.resource === 'controllerrevisions');
    expect(revisionWrites.map((action) => `${action.verb} ${action.patchType ?? ''}`)).toEqual(['patch json']);
    const [revision] = fixture.fake.objects(controllerRevisionResource);
    expect(revision?.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ uid: cs.metadata.uid, controller: true }),
    ]);
    expect(stored(fixture).status?.updateRevision).toBe(revision?.metadata?.name);
  });

  it('skips a pod with an unreadable in-place update state, sets FailedUpdate and warns once', async () => {
    const fixture = syncFixture([
      cloneSet({ spec: webSpec(2, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '100%' } }) }),
    ]);
    await settle(fixture);
    const [bad] = podNames(fixture);
    await fixture.fake.patch(
      podResource,
      { namespace: NAMESPACE, name: bad ?? '' },
      { type: 'merge', body: { metadata: { annotations: { 'apps.kruise.io/inplace-update-state': '{' } } } },
    );
    await editSpec(
      fixture,
      webSpec(2, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '100%' } }, 'nginx:1.27'),
    );
    await fixture.reconcile();
    expect(condition(fixture, 'FailedUpdate')).toMatchObject({
      reason: 'InvalidInPlaceUpdateAnnotation',
      message: expect.stringContaining(`pod ${bad ?? ''}: apps.kruise.io/inplace-update-state`) as unknown,
    });
    const warnings = (): number => fixture.recorder.events.filter((event) => event.type === 'Warning').length;
    expect(warnings()).toBe(1);
    await fixture.reconcile();
    expect(warnings()).toBe(1);
  });

  it('waits while the cache shows the CloneSet from before its own status write, and goes on once it shows it', async () => {
    // The cache as a test makes it lag: `frozen`, while set, is what it returns for the CloneSet.
    const cache: { frozen?: DeepReadonly<CloneSet> } = {};
    const fixture = syncFixture([cloneSet({ spec: webSpec(2) })], {
      cloneSetCache: (live) => ({ ...live, get: (namespace, name) => cache.frozen ?? live.get(namespace, name) }),
    });
    cache.frozen = structuredClone(stored(fixture));
    await fixture.reconcile();
    expect(podNames(fixture)).toHaveLength(2);
    expect(statusWrites(fixture)).toBe(1);

    // A status computed from the copy before that write would be diffed against a status it no
    // longer has: nothing is read or written until the cache shows the write.
    fixture.fake.clearActions();
    expect(await fixture.reconcile()).toEqual({ requeueAfterMs: 1000 });
    expect(fixture.fake.writes()).toEqual([]);

    delete cache.frozen;
    await runPods(fixture);
    fixture.fake.clearActions();
    await fixture.reconcile();
    expect(statusWrites(fixture)).toBe(1);
    expect(stored(fixture).status?.readyReplicas).toBe(2);
  });

  it('cancelled: a reconcile whose signal aborted writes nothing', async () => {
    const fixture = syncFixture([cloneSet({ spec: webSpec(3) })]);
    const stop = new AbortController();
    stop.abort(new Error('shutting down'));
    await expect(fixture.reconcile('web', stop.signal)).rejects.toThrow();
    expect(fixture.fake.writes()).toEqual([]);
  });
});
