import type { ControllerRevision, PodTemplateSpec } from '@kruise-ts/api';
import { ApiError } from '@kruise-ts/controller-runtime';
import type { ObjectKeyRef, ResourcePatch } from '@kruise-ts/controller-runtime';
import { describe, expect, it } from 'vitest';

import { newControllerRevision } from './controller-revision.ts';
import { ensureUpdateRevision, MAX_COLLISION_RETRIES } from './ensure-update-revision.ts';
import type { EnsureUpdateRevisionOptions } from './ensure-update-revision.ts';
import { marshalGoJson } from './go-json.ts';

const owner = {
  name: 'sample',
  namespace: 'ns',
  uid: 'uid-1',
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
};
const templateA: PodTemplateSpec = {
  metadata: { labels: { app: 'sample' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:1' }] },
};
const templateB: PodTemplateSpec = {
  metadata: { labels: { app: 'sample' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:2' }] },
};

const failure = (code: number, reason: string): ApiError =>
  new ApiError({ code, status: { kind: 'Status', reason, code } });

/**
 * An API server in memory for ControllerRevisions: objects travel as JSON text (as over HTTP), names
 * are unique, merge patches honour a resourceVersion precondition. Records every call.
 */
class FakeRevisionApi {
  readonly actions: string[] = [];
  readonly stored = new Map<string, { object: ControllerRevision; dataText: string }>();
  /** Conflicts to answer to the next patches, before applying one. */
  conflicts = 0;
  #version = 0;

  readonly client: EnsureUpdateRevisionOptions['client'] = {
    create: (object: ControllerRevision): Promise<ControllerRevision> => {
      const name = object.metadata?.name ?? '';
      this.actions.push(`create ${name}`);
      if (this.stored.has(name)) {
        return Promise.reject(failure(409, 'AlreadyExists'));
      }
      const text = JSON.stringify(object);
      const parsed = JSON.parse(text) as ControllerRevision;
      this.#store(
        { ...parsed, metadata: { ...parsed.metadata, uid: `uid-${name}` } },
        /"data":(.*),"revision"/.exec(text)?.[1] ?? '',
      );
      return Promise.resolve(this.#read(name));
    },
    get: (key: ObjectKeyRef): Promise<ControllerRevision> => {
      this.actions.push(`get ${key.name}`);
      return this.stored.has(key.name)
        ? Promise.resolve(this.#read(key.name))
        : Promise.reject(failure(404, 'NotFound'));
    },
    patch: (key: ObjectKeyRef, patch: ResourcePatch): Promise<ControllerRevision> => {
      const body = patch.body as {
        metadata: { resourceVersion?: string; annotations?: Record<string, string> };
        revision: number;
      };
      this.actions.push(`patch ${key.name} revision=${String(body.revision)}`);
      const entry = this.stored.get(key.name);
      if (entry === undefined) {
        return Promise.reject(failure(404, 'NotFound'));
      }
      if (this.conflicts > 0 || body.metadata.resourceVersion !== entry.object.metadata?.resourceVersion) {
        this.conflicts = Math.max(0, this.conflicts - 1);
        this.#store(entry.object, entry.dataText);
        return Promise.reject(failure(409, 'Conflict'));
      }
      const annotations = { ...entry.object.metadata?.annotations, ...body.metadata.annotations };
      this.#store(
        { ...entry.object, metadata: { ...entry.object.metadata, annotations }, revision: body.revision },
        entry.dataText,
      );
      return Promise.resolve(this.#read(key.name));
    },
  };

  /** Stores an object as OpenKruise would have created it (data in Go's bytes). */
  seed(revision: ControllerRevision): ControllerRevision {
    this.#store(revision, marshalGoJson(revision.data));
    return this.#read(revision.metadata?.name ?? '');
  }

  #store(object: ControllerRevision, dataText: string): void {
    this.#version++;
    this.stored.set(object.metadata?.name ?? '', {
      object: { ...object, metadata: { ...object.metadata, resourceVersion: String(this.#version) } },
      dataText,
    });
  }

  #read(name: string): ControllerRevision {
    const entry = this.stored.get(name);
    return JSON.parse(JSON.stringify(entry?.object)) as ControllerRevision;
  }
}

function options(api: FakeRevisionApi, overrides: Partial<EnsureUpdateRevisionOptions>): EnsureUpdateRevisionOptions {
  return { client: api.client, owner, template: templateA, revisions: [], collisionCount: 0, ...overrides };
}

describe('ensureUpdateRevision', () => {
  it('creates revision 1 for a new history, sending the data in Go bytes', async () => {
    const api = new FakeRevisionApi();
    const templateWithHtml: PodTemplateSpec = {
      ...templateA,
      metadata: { labels: { app: 'sample' }, annotations: { note: '<&>' } },
    };
    const result = await ensureUpdateRevision(
      options(api, { template: templateWithHtml, ownerAnnotations: { owner: 'yes' } }),
    );
    const expected = newControllerRevision({
      owner,
      template: templateWithHtml,
      ownerAnnotations: { owner: 'yes' },
      collisionCount: 0,
      revision: 1,
    });
    expect(api.actions).toEqual([`create ${expected.metadata?.name ?? ''}`]);
    expect(result.updateRevision).toMatchObject({
      metadata: { name: expected.metadata?.name, annotations: { owner: 'yes' } },
      revision: 1,
    });
    expect(result.collisionCount).toBe(0);
    expect(result.revisions.map((revision) => revision.metadata?.name)).toEqual([expected.metadata?.name]);
    expect(api.stored.get(expected.metadata?.name ?? '')?.dataText).toBe(marshalGoJson(expected.data));
    expect(api.stored.get(expected.metadata?.name ?? '')?.dataText).toContain('\\u003c\\u0026\\u003e');
  });

  it('writes nothing when the latest revision is equal', async () => {
    const api = new FakeRevisionApi();
    const existing = api.seed(newControllerRevision({ owner, template: templateA, collisionCount: 0, revision: 1 }));
    const result = await ensureUpdateRevision(options(api, { revisions: [existing] }));
    expect(api.actions).toEqual([]);
    expect(result.updateRevision).toBe(existing);
  });

  it('renumbers an older equal revision (rollback) with a merge patch', async () => {
    const api = new FakeRevisionApi();
    const a = api.seed(newControllerRevision({ owner, template: templateA, collisionCount: 0, revision: 1 }));
    const b = api.seed(newControllerRevision({ owner, template: templateB, collisionCount: 0, revision: 2 }));
    const result = await ensureUpdateRevision(
      options(api, { revisions: [b, a], reuseAnnotations: { 'kruise.io/cloneset-volumeclaimtemplate-hash': '' } }),
    );
    expect(api.actions).toEqual([`patch ${a.metadata?.name ?? ''} revision=3`]);
    expect(result.updateRevision).toMatchObject({
      metadata: { name: a.metadata?.name, annotations: { 'kruise.io/cloneset-volumeclaimtemplate-hash': '' } },
      revision: 3,
    });
    expect(result.revisions.map((revision) => revision.revision)).toEqual([2, 3]);
  });

  it('retries the renumbering on conflicts, re-reading the revision', async () => {
    const api = new FakeRevisionApi();
    const a = api.seed(newControllerRevision({ owner, template: templateA, collisionCount: 0, revision: 1 }));
    const b = api.seed(newControllerRevision({ owner, template: templateB, collisionCount: 0, revision: 2 }));
    api.conflicts = 2;
    const result = await ensureUpdateRevision(options(api, { revisions: [a, b] }));
    const name = a.metadata?.name ?? '';
    expect(api.actions).toEqual([
      `patch ${name} revision=3`,
      `get ${name}`,
      `patch ${name} revision=3`,
      `get ${name}`,
      `patch ${name} revision=3`,
    ]);
    expect(result.updateRevision.revision).toBe(3);
  });

  it('gives up renumbering after repeated conflicts', async () => {
    const api = new FakeRevisionApi();
    const a = api.seed(newControllerRevision({ owner, template: templateA, collisionCount: 0, revision: 1 }));
    const b = api.seed(newControllerRevision({ owner, template: templateB, collisionCount: 0, revision: 2 }));
    api.conflicts = 100;
    await expect(ensureUpdateRevision(options(api, { revisions: [a, b] }))).rejects.toThrow(/kept changing/);
  });

  it('reuses an existing object with the same name and data (a revision missing from the cache)', async () => {
    const api = new FakeRevisionApi();
    const existing = api.seed(newControllerRevision({ owner, template: templateA, collisionCount: 0, revision: 7 }));
    const result = await ensureUpdateRevision(options(api, {}));
    expect(api.actions).toEqual([`create ${existing.metadata?.name ?? ''}`, `get ${existing.metadata?.name ?? ''}`]);
    expect(result).toMatchObject({
      collisionCount: 0,
      updateRevision: { metadata: { name: existing.metadata?.name }, revision: 7 },
    });
  });

  it('escapes a name collision by counting it into the hash', async () => {
    const api = new FakeRevisionApi();
    const wanted = newControllerRevision({ owner, template: templateA, collisionCount: 0, revision: 1 });
    api.seed({
      ...newControllerRevision({ owner, template: templateB, collisionCount: 0, revision: 1 }),
      metadata: { ...wanted.metadata },
    });
    const result = await ensureUpdateRevision(options(api, {}));
    const next = newControllerRevision({ owner, template: templateA, collisionCount: 1, revision: 1 });
    expect(api.actions).toEqual([
      `create ${wanted.metadata?.name ?? ''}`,
      `get ${wanted.metadata?.name ?? ''}`,
      `create ${next.metadata?.name ?? ''}`,
    ]);
    expect(result.collisionCount).toBe(1);
    expect(result.updateRevision.metadata?.name).toBe(next.metadata?.name);
  });

  it('gives up after a bounded number of collisions', async () => {
    const api = new FakeRevisionApi();
    for (let count = 0; count <= MAX_COLLISION_RETRIES; count++) {
      const name =
        newControllerRevision({ owner, template: templateA, collisionCount: count, revision: 1 }).metadata?.name ?? '';
      api.seed({
        ...newControllerRevision({ owner, template: templateB, collisionCount: 0, revision: 1 }),
        metadata: { name, namespace: 'ns' },
      });
    }
    await expect(ensureUpdateRevision(options(api, {}))).rejects.toThrow(/names in a row are taken/);
    expect(api.actions.filter((action) => action.startsWith('create'))).toHaveLength(MAX_COLLISION_RETRIES + 1);
  });

  it('passes other errors through', async () => {
    const api = new FakeRevisionApi();
    const client = { ...api.client, create: () => Promise.reject(failure(403, 'Forbidden')) };
    await expect(ensureUpdateRevision(options(api, { client }))).rejects.toMatchObject({ reason: 'Forbidden' });
  });

  it('takes a candidate instead of a template (an owner whose revisions are not a pod template), and reuses an equal one', async () => {
    const api = new FakeRevisionApi();
    // The raw data is Go's bytes (here with an escaped "<"), stored as they are.
    const candidate = {
      raw: marshalGoJson({ spec: { $patch: 'replace', containers: [{ image: 'a<b', name: 's' }] } }),
      labels: { 'kruise.io/sidecarset-name': 'sample' },
    };
    expect(candidate.raw).toContain('a\\u003cb');
    const rest = { client: api.client, owner, revisions: [], collisionCount: 0 };
    const first = await ensureUpdateRevision({ ...rest, candidate });
    expect(first.updateRevision.metadata?.labels).toMatchObject({ 'kruise.io/sidecarset-name': 'sample' });
    expect(api.stored.get(first.updateRevision.metadata?.name ?? '')?.dataText).toBe(candidate.raw);
    const again = await ensureUpdateRevision({ ...rest, candidate, revisions: [first.updateRevision] });
    expect(again.updateRevision.metadata?.name).toBe(first.updateRevision.metadata?.name);
    expect(api.actions.filter((action) => action.startsWith('create'))).toHaveLength(1);
  });

  it('refuses options with neither a template nor a candidate', async () => {
    const api = new FakeRevisionApi();
    await expect(ensureUpdateRevision({ client: api.client, owner, revisions: [], collisionCount: 0 })).rejects.toThrow(
      /a template or a candidate/,
    );
  });
});
