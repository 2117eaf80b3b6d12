import { describe, expect, it } from 'vitest';

import { defineResource } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, KubeObject, OwnerReferenceLike } from '@kruise-ts/controller-runtime';

import { bucketLabelValue, bucketOf, parseBucketLabel, SHARD_BUCKET_LABEL, SHARD_BUCKETS } from './bucket.ts';
import { labelPatch, labelRepair, ownerFinder, WITHOUT_A_VALID_BUCKET } from './bucket-label-repair.ts';
import type { LabelledKind } from './bucket-label-repair.ts';

const pods = defineResource<KubeObject>({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });
const revisions = defineResource<KubeObject>({
  group: 'apps',
  version: 'v1',
  plural: 'controllerrevisions',
  kind: 'ControllerRevision',
  namespaced: true,
});

/** The one workload an orphan's `app` label selects, as `soleSelectingOwner` would find it. */
const soleOwner = (object: DeepReadonly<KubeObject>): string | undefined =>
  object.metadata?.labels?.['app'] === 'web' ? 'ns/web' : undefined;
/** Advanced StatefulSet pods, selected by the pod-name label native StatefulSets' pods carry too. */
const astsPods: LabelledKind = {
  resource: pods,
  labelSelector: 'statefulset.kubernetes.io/pod-name',
  ownerKind: 'StatefulSet',
  ownerGroup: 'apps.kruise.io',
  orphanOwner: soleOwner,
};
/** Advanced StatefulSet revisions: no selector, no orphans. */
const astsRevisions: LabelledKind = { resource: revisions, ownerKind: 'StatefulSet', ownerGroup: 'apps.kruise.io' };

function controlledBy(apiVersion: string, kind: string, name: string): OwnerReferenceLike[] {
  return [{ apiVersion, kind, name, uid: `uid-${name}`, controller: true }];
}

function object(
  name: string,
  extra: { labels?: Record<string, string>; ownerReferences?: OwnerReferenceLike[] } = {},
): KubeObject {
  return { metadata: { namespace: 'ns', name, resourceVersion: '7', ...extra } };
}

const WEB_BUCKET = bucketLabelValue(bucketOf('ns', 'web'));
const OTHER_BUCKET = bucketLabelValue((bucketOf('ns', 'web') + 1) % SHARD_BUCKETS);
const ours = object('web-0', { ownerReferences: controlledBy('apps.kruise.io/v1beta1', 'StatefulSet', 'web') });
const nativeStatefulSetPod = object('db-0', {
  labels: { 'statefulset.kubernetes.io/pod-name': 'db-0', app: 'web' },
  ownerReferences: controlledBy('apps/v1', 'StatefulSet', 'db'),
});
const daemonSetRevision = object('ds-1', { ownerReferences: controlledBy('apps/v1', 'DaemonSet', 'ds') });
const orphan = object('web-9', { labels: { app: 'web' } });
const contestedOrphan = object('web-8', { labels: { app: 'both' } });

describe('bucket labeller candidates (issue 38)', () => {
  it('the ControllerRevision labeller has no selector and the Advanced StatefulSet pod labeller matches native StatefulSet pods: only what the kind controls, and orphans it could adopt, are candidates', () => {
    const podsOf = ownerFinder(astsPods);
    const revisionsOf = ownerFinder(astsRevisions);
    expect([ours, nativeStatefulSetPod, orphan, contestedOrphan].map((pod) => podsOf.isCandidate(pod))).toEqual([
      true,
      false,
      true,
      true,
    ]);
    // Revisions are never orphans to adopt, and another kind's are never ours.
    const ourRevision = object('web-1', {
      ownerReferences: controlledBy('apps.kruise.io/v1beta1', 'StatefulSet', 'web'),
    });
    expect(
      [ourRevision, daemonSetRevision, object('loose-1')].map((revision) => revisionsOf.isCandidate(revision)),
    ).toEqual([true, false, false]);
    // Same kind, another group: a native StatefulSet is not an Advanced one.
    expect(
      revisionsOf.isCandidate(object('sts-1', { ownerReferences: controlledBy('apps/v1', 'StatefulSet', 'web') })),
    ).toBe(false);
  });

  it('counts in the backlog only candidates with an owner to take a bucket from: an orphan two workloads select has none', () => {
    const podsOf = ownerFinder(astsPods);
    expect([ours, orphan, contestedOrphan, nativeStatefulSetPod].map((pod) => podsOf.labelFor(pod))).toEqual([
      'ns/web',
      'ns/web',
      undefined,
      undefined,
    ]);
  });

  it('selects exactly the label values that are not a bucket: the 64 values notin the selector are the ones parseBucketLabel reads', () => {
    const values = /notin \((.*)\)$/.exec(WITHOUT_A_VALID_BUCKET)?.[1]?.split(',') ?? [];
    expect(WITHOUT_A_VALID_BUCKET.startsWith(`${SHARD_BUCKET_LABEL} notin (`)).toBe(true);
    expect(values.map((value) => parseBucketLabel(value))).toEqual(
      Array.from({ length: SHARD_BUCKETS }, (_, bucket) => bucket),
    );
    for (const malformed of ['', 'x', '64', '07', '-1', '1.0', ' 3']) {
      expect([malformed, values.includes(malformed), parseBucketLabel(malformed)]).toEqual([
        malformed,
        false,
        undefined,
      ]);
    }
  });
});

describe('bucket label repair decisions (issue 38)', () => {
  it("a bucket label with a wrong or malformed value hides the object from every replica: missing, malformed and wrong values get the owner's bucket, a right one nothing", () => {
    const podsOf = ownerFinder(astsPods);
    const withLabel = (value: string | undefined): KubeObject => ({
      ...ours,
      metadata: { ...ours.metadata, labels: value === undefined ? {} : { [SHARD_BUCKET_LABEL]: value } },
    });
    const decisions = [undefined, 'x', '64', '07', OTHER_BUCKET, WEB_BUCKET].map((value) =>
      labelRepair(podsOf, withLabel(value)),
    );
    expect(decisions).toEqual([
      ...Array.from({ length: 5 }, () => ({ owner: 'ns/web', value: WEB_BUCKET })),
      undefined,
    ]);
  });

  it("never trusts the label to pick the owner: another controller's object, or an orphan no sole workload selects, is never relabelled whatever its label says", () => {
    const podsOf = ownerFinder(astsPods);
    const relabelled = (pod: KubeObject, value: string): KubeObject => ({
      ...pod,
      metadata: { ...pod.metadata, labels: { ...pod.metadata?.labels, [SHARD_BUCKET_LABEL]: value } },
    });
    expect(labelRepair(podsOf, relabelled(nativeStatefulSetPod, OTHER_BUCKET))).toBeUndefined();
    expect(labelRepair(podsOf, relabelled(nativeStatefulSetPod, 'x'))).toBeUndefined();
    expect(labelRepair(podsOf, relabelled(contestedOrphan, OTHER_BUCKET))).toBeUndefined();
    // An adoptable orphan takes its would-be owner's bucket, not the one its label names.
    expect(labelRepair(podsOf, relabelled(orphan, OTHER_BUCKET))).toEqual({ owner: 'ns/web', value: WEB_BUCKET });
  });

  it('writes the label on condition of the version judged, so that an object changed since (owner, labels) conflicts instead', () => {
    expect(labelPatch({ owner: 'ns/web', value: WEB_BUCKET }, '7')).toEqual({
      type: 'merge',
      body: { metadata: { labels: { [SHARD_BUCKET_LABEL]: WEB_BUCKET }, resourceVersion: '7' } },
    });
    expect(labelPatch({ owner: 'ns/web', value: WEB_BUCKET }, undefined)).toEqual({
      type: 'merge',
      body: { metadata: { labels: { [SHARD_BUCKET_LABEL]: WEB_BUCKET } } },
    });
  });
});
