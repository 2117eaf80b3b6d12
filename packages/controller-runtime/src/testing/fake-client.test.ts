import { describe, expect, it } from 'vitest';

import { isAlreadyExists, isConflict, isForbidden, isInvalid, isNotFound } from '../client/api-error.ts';
import type { KubeObject } from '../client/kube-object.ts';
import { resourceClient } from '../client/resource-client.ts';
import { defineResource } from '../client/resource-type.ts';
import { byControllerUid, CONTROLLER_UID_INDEX } from '../cache/indexers.ts';
import { fakeApiError } from './fake-api-error.ts';
import { FakeClient } from './fake-client.ts';
import { FakeEventRecorder } from './fake-event-recorder.ts';

interface TestPod extends KubeObject {
  readonly spec?: { readonly containers: readonly { readonly name: string; readonly image: string }[] };
  readonly status?: { readonly conditions?: readonly { readonly type: string; readonly status: string }[] };
}

const pods = defineResource<TestPod>({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });
const configMaps = defineResource<KubeObject & { readonly data?: Record<string, string> }>({
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
});

function pod(name: string, image = 'nginx:1.25'): TestPod {
  return {
    metadata: { name, namespace: 'ns', labels: { app: 'web' } },
    spec: { containers: [{ name: 'main', image }] },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

describe('FakeClient', () => {
  it('creates with a uid, resourceVersion and generateName, and refuses a taken name', async () => {
    const fake = new FakeClient();
    const created = await fake.create(pods, pod('a'));
    expect(created.metadata).toMatchObject({
      name: 'a',
      uid: expect.any(String) as unknown,
      resourceVersion: expect.any(String) as unknown,
      generation: 1,
    });
    expect(created).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
    const generated = await fake.create(pods, { metadata: { generateName: 'web-', namespace: 'ns' } });
    expect(generated.metadata?.name).toMatch(/^web-/);
    await expect(fake.create(pods, pod('a'))).rejects.toSatisfy(isAlreadyExists);
    expect(fake.writes().map((action) => `${action.verb} ${action.name}`)).toEqual(['create a', 'create ', 'create a']);
  });

  it('answers a dry-run create without storing it, refuses a taken name the same way, and counts no write', async () => {
    const fake = new FakeClient();
    const answered = await fake.create(pods, pod('a'), { dryRun: true });
    expect(answered.metadata?.uid).toMatch(/^uid-/);
    expect(fake.objects(pods)).toEqual([]);
    await fake.create(pods, pod('b'));
    expect(isAlreadyExists(await fake.create(pods, pod('b'), { dryRun: true }).catch((error: unknown) => error))).toBe(
      true,
    );
    expect(fake.actions.map((action) => [action.verb, action.name, action.dryRun])).toEqual([
      ['create', 'a', true],
      ['create', 'b', undefined],
      ['create', 'b', true],
    ]);
    expect(fake.writes().map((action) => action.name)).toEqual(['b']);
  });

  it('answers NotFound for what does not exist', async () => {
    const fake = new FakeClient();
    await expect(fake.get(pods, { namespace: 'ns', name: 'nope' })).rejects.toSatisfy(isNotFound);
    await expect(fake.delete(pods, { namespace: 'ns', name: 'nope' })).rejects.toSatisfy(isNotFound);
  });

  it('applies strategic merge patches to pods and to pods/status, which keeps the spec', async () => {
    const fake = new FakeClient();
    fake.seed(pods, [pod('a')]);
    const client = resourceClient(fake, pods);
    const patched = await client.patch(
      { namespace: 'ns', name: 'a' },
      { type: 'strategic', body: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } } },
    );
    expect(patched.spec?.containers).toEqual([{ name: 'main', image: 'nginx:1.27' }]);
    const status = await client.patchStatus(
      { namespace: 'ns', name: 'a' },
      {
        type: 'strategic',
        body: {
          metadata: { labels: { state: 'Updating' } },
          spec: { containers: [] },
          status: { conditions: [{ type: 'InPlaceUpdateReady', status: 'False' }] },
        },
      },
    );
    expect(status.spec?.containers).toEqual([{ name: 'main', image: 'nginx:1.27' }]);
    expect(status.metadata?.labels).toEqual({ app: 'web', state: 'Updating' });
    expect(status.status?.conditions).toEqual([
      { type: 'Ready', status: 'True' },
      { type: 'InPlaceUpdateReady', status: 'False' },
    ]);
    expect(fake.writes().map((action) => [action.verb, action.subresource, action.patchType])).toEqual([
      ['patch', undefined, 'strategic'],
      ['patch', 'status', 'strategic'],
    ]);
  });

  it('treats a resourceVersion in a patch as a precondition', async () => {
    const fake = new FakeClient();
    fake.seed(pods, [pod('a')]);
    const current = await fake.get(pods, { namespace: 'ns', name: 'a' });
    await fake.patch(
      pods,
      { namespace: 'ns', name: 'a' },
      { type: 'merge', body: { metadata: { labels: { x: '1' } } } },
    );
    const stale = fake.patch(
      pods,
      { namespace: 'ns', name: 'a' },
      { type: 'merge', body: { metadata: { resourceVersion: current.metadata?.resourceVersion, labels: { x: '2' } } } },
    );
    await expect(stale).rejects.toSatisfy(isConflict);
    expect((await fake.get(pods, { namespace: 'ns', name: 'a' })).metadata?.labels).toEqual({ app: 'web', x: '1' });
  });

  it('answers a failed JSON patch test with 422 Invalid and changes nothing', async () => {
    const fake = new FakeClient();
    fake.seed(pods, [pod('a')]);
    const patch = fake.patch(
      pods,
      { namespace: 'ns', name: 'a' },
      {
        type: 'json',
        body: [
          { op: 'test', path: '/metadata/uid', value: 'other' },
          { op: 'replace', path: '/metadata/labels', value: {} },
        ],
      },
    );
    await expect(patch).rejects.toSatisfy(isInvalid);
    expect((await fake.get(pods, { namespace: 'ns', name: 'a' })).metadata?.labels).toEqual({ app: 'web' });
  });

  it('deletes with a uid precondition', async () => {
    const fake = new FakeClient();
    fake.seed(pods, [pod('a')]);
    await expect(
      fake.delete(pods, { namespace: 'ns', name: 'a' }, { preconditions: { uid: 'someone-else' } }),
    ).rejects.toSatisfy(isConflict);
    const uid = (await fake.get(pods, { namespace: 'ns', name: 'a' })).metadata?.uid ?? '';
    await fake.delete(pods, { namespace: 'ns', name: 'a' }, { preconditions: { uid } });
    expect(fake.objects(pods)).toEqual([]);
  });

  it('bumps the generation of a spec change but not of a status write', async () => {
    const fake = new FakeClient();
    fake.seed(configMaps, [{ metadata: { name: 'c', namespace: 'ns' } }]);
    const cm = await fake.patch(
      configMaps,
      { namespace: 'ns', name: 'c' },
      { type: 'merge', body: { data: { a: '1' } } },
    );
    expect(cm.metadata?.generation).toBe(1);
    const p = await fake.create(pods, pod('a'));
    const updated = await fake.patch(
      pods,
      { namespace: 'ns', name: 'a' },
      { type: 'strategic', body: { spec: { containers: [{ name: 'main', image: 'x' }] } } },
    );
    const statusOnly = await fake.patchStatus(
      pods,
      { namespace: 'ns', name: 'a' },
      { type: 'strategic', body: { status: { conditions: [] } } },
    );
    expect([p.metadata?.generation, updated.metadata?.generation, statusOnly.metadata?.generation]).toEqual([1, 2, 2]);
  });

  it('lists by namespace and label selector', async () => {
    const fake = new FakeClient();
    fake.seed(pods, [
      pod('a'),
      { ...pod('b'), metadata: { name: 'b', namespace: 'other', labels: { app: 'web' } } },
      { ...pod('c'), metadata: { name: 'c', namespace: 'ns', labels: { app: 'db' } } },
    ]);
    const names = async (options: { namespace?: string; labelSelector?: string }): Promise<string[]> =>
      (await fake.list(pods, options)).items.map((item) => item.metadata?.name ?? '');
    expect(await names({ namespace: 'ns' })).toEqual(['a', 'c']);
    expect(await names({ labelSelector: 'app=web' })).toEqual(['a', 'b']);
    expect(await names({ namespace: 'ns', labelSelector: 'app!=web' })).toEqual(['c']);
  });

  it('lets a reactor fail matching calls', async () => {
    const fake = new FakeClient();
    fake.prependReactor({ verb: 'create', resource: 'pods' }, () => {
      throw fakeApiError({ code: 403, message: 'pods "web-" is forbidden: exceeded quota: q' });
    });
    await expect(fake.create(pods, pod('a'))).rejects.toSatisfy(isForbidden);
    expect(fake.objects(pods)).toEqual([]);
    expect(fake.actions.map((action) => action.verb)).toEqual(['create']);
  });

  it('rejects a call whose signal has aborted, without acting or recording it', async () => {
    const fake = new FakeClient();
    const stop = new AbortController();
    stop.abort(new Error('shutting down'));
    await expect(resourceClient(fake, pods, stop.signal).create(pod('a'))).rejects.toThrow('shutting down');
    expect(fake.actions).toEqual([]);
    expect(fake.objects(pods)).toEqual([]);
  });

  it('serves a frozen, indexed lister that follows its writes', async () => {
    const fake = new FakeClient();
    const lister = fake.lister(pods, { [CONTROLLER_UID_INDEX]: byControllerUid });
    await fake.create(pods, {
      ...pod('a'),
      metadata: {
        name: 'a',
        namespace: 'ns',
        ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'owner', controller: true }],
      },
    });
    expect(lister.byIndex(CONTROLLER_UID_INDEX, 'owner').map((item) => item.metadata?.name)).toEqual(['a']);
    const cached = lister.get('ns', 'a');
    expect(Object.isFrozen(cached)).toBe(true);
  });
});

describe('FakeEventRecorder', () => {
  it('records events in order', () => {
    const recorder = new FakeEventRecorder();
    const ref = { apiVersion: 'v1', kind: 'Pod', name: 'a' };
    recorder.normal(ref, 'SuccessfulCreate', 'created');
    recorder.warning(ref, 'FailedCreate', 'forbidden');
    expect(recorder.reasons()).toEqual(['SuccessfulCreate', 'FailedCreate']);
    expect(recorder.events[1]).toMatchObject({ type: 'Warning', message: 'forbidden', object: ref });
  });
});
