import { describe, expect, it } from 'vitest';

import { SIDECARSET_INJECTED_LIST_ANNOTATION, sidecarSetSchema } from '@kruise-ts/api';
import type { Pod, SidecarSet, SidecarSetInput } from '@kruise-ts/api';
import { objectKey } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, KubeObject, Lister } from '@kruise-ts/controller-runtime';
import { fakeLister } from '@kruise-ts/controller-runtime/testing';

import { SidecarSetPodIndex } from './sidecarset-pod-index.ts';

function set(name: string, scope: Partial<SidecarSetInput['spec']> = {}): SidecarSet {
  return sidecarSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'logger', image: 'busybox:1' }], ...scope },
  });
}

function pod(
  name: string,
  labels: Record<string, string>,
  options: { namespace?: string; injected?: string } = {},
): Pod {
  const annotations = options.injected === undefined ? {} : { [SIDECARSET_INJECTED_LIST_ANNOTATION]: options.injected };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: options.namespace ?? 'ns', labels, annotations },
    spec: { containers: [{ name: 'app', image: 'app:1' }] },
  };
}

function namespace(name: string, labels: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
}

/** A lister over an array the test replaces, with keyed reads in constant time as an informer's store has them. */
function arrayLister<T extends KubeObject>(objects: () => readonly T[]): Lister<T> {
  let seen: readonly T[] | undefined;
  let byKey = new Map<string, T>();
  const keyed = (): Map<string, T> => {
    const current = objects();
    if (current !== seen) {
      seen = current;
      byKey = new Map(current.map((object) => [objectKey(object), object]));
    }
    return byKey;
  };
  const all = fakeLister(objects);
  return {
    ...all,
    list: () => [...objects()] as DeepReadonly<T>[],
    getByKey: (key) => keyed().get(key) as DeepReadonly<T> | undefined,
  };
}

/** An index over caches the test edits, as informers would hold them. */
function world(initial: { sets?: SidecarSet[]; pods?: Pod[]; namespaces?: KubeObject[] }) {
  const state = {
    sets: initial.sets ?? [],
    pods: initial.pods ?? [],
    namespaces: initial.namespaces ?? [namespace('ns', { team: 'a' }), namespace('other', { team: 'b' })],
  };
  const index = new SidecarSetPodIndex({
    sets: fakeLister(() => state.sets),
    pods: arrayLister(() => state.pods),
    namespaces: fakeLister(() => state.namespaces),
  });
  for (const added of state.sets) {
    index.setChanged(undefined, added);
  }
  const names = async (setName: string): Promise<string[]> =>
    (await index.podsOf(setName)).map((found) => found.metadata?.name ?? '').sort();
  return { state, index, names };
}

describe('SidecarSetPodIndex', () => {
  it('a new SidecarSet is rescanned on its first read: the pods it selects and those that record it', async () => {
    const { names } = world({
      sets: [set('mesh')],
      pods: [pod('a', { app: 'web' }), pod('b', { app: 'db' }), pod('c', { app: 'db' }, { injected: 'mesh,other' })],
    });
    expect(await names('mesh')).toEqual(['a', 'c']);
  });

  it('a pod event re-matches that pod and names the SidecarSets it concerned before or concerns now', async () => {
    const { state, index, names } = world({
      sets: [set('mesh'), set('db', { selector: { matchLabels: { app: 'db' } } })],
      pods: [pod('a', { app: 'web' })],
    });
    expect(await names('mesh')).toEqual(['a']);
    const relabelled = pod('a', { app: 'db' });
    state.pods = [relabelled];
    expect(index.podChanged(relabelled).sort()).toEqual(['db', 'mesh']);
    expect(await names('mesh')).toEqual([]);
    expect(await names('db')).toEqual(['a']);
    const added = pod('b', { app: 'web' });
    state.pods = [relabelled, added];
    expect(index.podChanged(added)).toEqual(['mesh']);
    expect(await names('mesh')).toEqual(['b']);
  });

  it('a deleted pod leaves the index, and a deleted SidecarSet takes its entries with it', async () => {
    const mesh = set('mesh');
    const { state, index, names } = world({ sets: [mesh], pods: [pod('a', { app: 'web' }), pod('b', { app: 'web' })] });
    expect(await names('mesh')).toEqual(['a', 'b']);
    const [gone] = state.pods;
    state.pods = state.pods.slice(1);
    expect(index.podDeleted(gone ?? pod('x', {}))).toEqual(['mesh']);
    expect(index.size()).toEqual({ pods: 1, sets: 1 });
    state.sets = [];
    index.setDeleted(mesh);
    expect(index.size()).toEqual({ pods: 0, sets: 0 });
  });

  it.each<{ name: string; change: Partial<SidecarSetInput['spec']>; expected: string[] }>([
    { name: 'selector', change: { selector: { matchLabels: { app: 'db' } } }, expected: ['db-0'] },
    { name: 'namespace', change: { namespace: 'other' }, expected: ['web-other'] },
    {
      name: 'namespaceSelector',
      change: { namespaceSelector: { matchLabels: { team: 'b' } } },
      expected: ['web-other'],
    },
  ])('a change of the $name rescans the SidecarSet', async ({ change, expected }) => {
    const before = set('mesh');
    const { state, index, names } = world({
      sets: [before],
      pods: [
        pod('web-0', { app: 'web' }),
        pod('db-0', { app: 'db' }),
        pod('web-other', { app: 'web' }, { namespace: 'other' }),
      ],
    });
    expect(await names('mesh')).toEqual(['web-0', 'web-other']);
    const after = set('mesh', change);
    state.sets = [after];
    index.setChanged(before, after);
    expect(await names('mesh')).toEqual(expected);
  });

  it('a change that does not touch what the SidecarSet selects is no rescan', async () => {
    const before = set('mesh');
    const { state, index, names } = world({ sets: [before], pods: [pod('a', { app: 'web' })] });
    expect(await names('mesh')).toEqual(['a']);
    const after = set('mesh', { containers: [{ name: 'logger', image: 'busybox:2' }] });
    state.sets = [after];
    // A pod the index was not told of (no event) stays unknown: no rescan happened.
    state.pods = [...state.pods, pod('b', { app: 'web' })];
    index.setChanged(before, after);
    expect(await names('mesh')).toEqual(['a']);
  });

  it("a namespace's new labels rescan the SidecarSets with a namespaceSelector", async () => {
    const { state, index, names } = world({
      sets: [set('mesh', { namespaceSelector: { matchLabels: { mesh: 'on' } } })],
      pods: [pod('a', { app: 'web' })],
    });
    expect(await names('mesh')).toEqual([]);
    const old = state.namespaces[0] ?? namespace('ns', {});
    const labelled = namespace('ns', { team: 'a', mesh: 'on' });
    state.namespaces = [labelled];
    index.namespaceChanged(old, labelled);
    expect(await names('mesh')).toEqual(['a']);
  });

  it('a rescan over many pods yields to the event loop between slices, and events meanwhile are kept', async () => {
    const pods = Array.from({ length: 1200 }, (_, i) => pod(`p${String(i)}`, { app: 'web' }));
    const { state, index } = world({ sets: [set('mesh')], pods });
    let yielded = false;
    setImmediate(() => {
      yielded = true;
      const late = pod('late', { app: 'web' });
      state.pods = [...state.pods, late];
      index.podChanged(late);
    });
    const found = await index.podsOf('mesh');
    expect(yielded).toBe(true);
    expect(found).toHaveLength(1201);
  });
});
