import { describe, expect, it } from 'vitest';

import { SIDECARSET_CUSTOM_VERSION_LABEL, SIDECARSET_NAME_LABEL, sidecarSetSchema } from '@kruise-ts/api';
import type { ControllerRevision, Pod, SidecarSet, SidecarSetInput } from '@kruise-ts/api';
import { controllerRevisionFromCandidate } from '@kruise-ts/revision';

import { injectionVersion, pinnedRevision } from './pinned-revision.ts';
import { historySidecarSet, sidecarSetRevisionCandidate, sidecarSetRevisionData } from './revision-data.ts';

function sidecarSet(
  image: string,
  extra: Partial<SidecarSetInput['spec']> = {},
  labels: Record<string, string> = {},
): SidecarSet {
  return sidecarSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'logs', uid: 'uid-1', labels },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'logger', image }], ...extra },
  });
}

/** A revision of the set at `image`, number `revision`, as the controller would store it. */
function revisionOf(image: string, revision: number, labels: Record<string, string> = {}): ControllerRevision {
  const set = sidecarSet(image, {}, labels);
  const stored = controllerRevisionFromCandidate({
    owner: {
      name: 'logs',
      namespace: 'kruise-system',
      uid: 'uid-1',
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
    },
    candidate: sidecarSetRevisionCandidate(set),
    collisionCount: 0,
    revision,
  });
  return { ...stored, metadata: { ...stored.metadata, creationTimestamp: `2026-11-2${String(revision)}T00:00:00Z` } };
}

const POD: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', labels: { app: 'web', canary: 'no' } },
  spec: { containers: [{ name: 'app', image: 'app' }] },
};
const V1 = revisionOf('busybox:1.35', 1, { [SIDECARSET_CUSTOM_VERSION_LABEL]: 'stable' });
const V2 = revisionOf('busybox:1.36', 2, { [SIDECARSET_CUSTOM_VERSION_LABEL]: 'stable' });
const V3 = revisionOf('busybox:1.37', 3);
const REVISIONS = [V3, V1, V2];
const imageOf = (set: {
  readonly spec: { readonly containers?: readonly { readonly image?: string | undefined }[] | undefined };
}) => set.spec.containers?.[0]?.image;

describe('sidecarSetRevisionData', () => {
  it("records the five fields under the replace directive, absent ones as null, keys sorted as Go's map", () => {
    const data = sidecarSetRevisionData(sidecarSet('busybox:1.36', { imagePullSecrets: [{ name: 'reg' }] }));
    expect(data).toBe(
      '{"spec":{"$patch":"replace","containers":[{"image":"busybox:1.36","imagePullPolicy":"IfNotPresent","name":"logger","podInjectPolicy":"BeforeAppContainer","resources":{},"shareVolumePolicy":{"type":"disabled"},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","upgradeStrategy":{"upgradeType":"ColdUpgrade"}}],"imagePullSecrets":[{"name":"reg"}],"initContainers":null,"patchPodMetadata":null,"volumes":null}}',
    );
  });

  it('labels the revision with the set name and the set labels', () => {
    expect(V1.metadata?.labels).toMatchObject({
      [SIDECARSET_NAME_LABEL]: 'logs',
      [SIDECARSET_CUSTOM_VERSION_LABEL]: 'stable',
    });
  });
});

describe('historySidecarSet', () => {
  it("takes the recorded sidecars, keeps the set's own fields, and names the revision as latest", () => {
    const current = sidecarSet('busybox:1.37', { updateStrategy: { paused: true } });
    const history = historySidecarSet(current, V1);
    expect(imageOf(history ?? current)).toBe('busybox:1.35');
    expect(history?.spec.updateStrategy.paused).toBe(true);
    expect(history?.status?.latestRevision).toBe(V1.metadata?.name);
    expect(current.spec.containers?.[0]?.image).toBe('busybox:1.37');
  });

  it('is undefined for a revision without a spec', () => {
    expect(historySidecarSet(sidecarSet('x'), { ...V1, data: { other: 1 } })).toBeUndefined();
  });
});

describe('pinnedRevision', () => {
  it.each([
    { name: 'no pin', pin: undefined, expected: { pinned: false } },
    {
      name: 'by name',
      pin: { revisionName: V1.metadata?.name ?? '' },
      expected: { pinned: true, revision: V1.metadata?.name },
    },
    {
      name: 'by custom version: the newest labelled one',
      pin: { customVersion: 'stable' },
      expected: { pinned: true, revision: V2.metadata?.name },
    },
    { name: 'a missing name', pin: { revisionName: 'logs-nothere' }, expected: { pinned: true, revision: undefined } },
    {
      name: 'a custom version no revision has',
      pin: { customVersion: 'canary' },
      expected: { pinned: true, revision: undefined },
    },
  ])('$name', ({ pin, expected }) => {
    const set = sidecarSet('busybox:1.37', pin === undefined ? {} : { injectionStrategy: { revision: pin } });
    const result = pinnedRevision(set, REVISIONS);
    expect({ pinned: result.pinned, revision: result.revision?.metadata?.name }).toEqual(expected);
  });

  it("ignores another SidecarSet's revisions of the same custom version", () => {
    const other = {
      ...V2,
      metadata: {
        ...V2.metadata,
        name: 'other-x',
        labels: { ...V2.metadata?.labels, [SIDECARSET_NAME_LABEL]: 'other' },
      },
    };
    const set = sidecarSet('busybox:1.37', { injectionStrategy: { revision: { customVersion: 'stable' } } });
    expect(pinnedRevision(set, [V1, other]).revision?.metadata?.name).toBe(V1.metadata?.name);
  });
});

describe('injectionVersion', () => {
  const pinned = (policy: 'Always' | 'Partial', updateStrategy: SidecarSetInput['spec']['updateStrategy'] = {}) =>
    sidecarSet('busybox:1.37', {
      injectionStrategy: { revision: { revisionName: V1.metadata?.name ?? '', policy } },
      updateStrategy,
    });
  it.each([
    { name: 'no pin: the latest', set: sidecarSet('busybox:1.37'), draw: 0, expected: 'busybox:1.37' },
    { name: 'Always: the pinned one', set: pinned('Always'), draw: 0.99, expected: 'busybox:1.35' },
    {
      name: 'paused: the pinned one, whatever the policy',
      set: pinned('Partial', { paused: true }),
      draw: 0.99,
      expected: 'busybox:1.35',
    },
    {
      name: 'Partial, pod outside the update selector: pinned',
      set: pinned('Partial', { selector: { matchLabels: { canary: 'yes' } } }),
      draw: 0.99,
      expected: 'busybox:1.35',
    },
    {
      name: 'Partial, pod in the selector, no partition: latest',
      set: pinned('Partial', { selector: { matchLabels: { canary: 'no' } } }),
      draw: 0,
      expected: 'busybox:1.37',
    },
    {
      name: 'Partial, 30% partition, draw 0.2: pinned',
      set: pinned('Partial', { partition: '30%' }),
      draw: 0.2,
      expected: 'busybox:1.35',
    },
    {
      name: 'Partial, 30% partition, draw 0.3: pinned (<=)',
      set: pinned('Partial', { partition: '30%' }),
      draw: 0.3,
      expected: 'busybox:1.35',
    },
    {
      name: 'Partial, 30% partition, draw 0.31: latest',
      set: pinned('Partial', { partition: '30%' }),
      draw: 0.31,
      expected: 'busybox:1.37',
    },
    {
      name: 'Partial, int partition: latest',
      set: pinned('Partial', { partition: 3 }),
      draw: 0,
      expected: 'busybox:1.37',
    },
  ])('$name', ({ set, draw, expected }) => {
    const version = injectionVersion(set, POD, { revisions: REVISIONS, random: () => draw });
    expect(imageOf(version.set)).toBe(expected);
    expect(version.warning).toBeUndefined();
  });

  it('injects the latest with a warning when the pinned revision is missing (OpenKruise rejects the pod)', () => {
    const set = sidecarSet('busybox:1.37', { injectionStrategy: { revision: { revisionName: 'logs-gone' } } });
    const version = injectionVersion(set, POD, { revisions: REVISIONS, random: () => 0 });
    expect(imageOf(version.set)).toBe('busybox:1.37');
    expect(version.warning).toContain('does not exist');
  });
});
