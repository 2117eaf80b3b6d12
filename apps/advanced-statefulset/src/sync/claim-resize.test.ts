import { describe, expect, it } from 'vitest';

import { parseFeatureGates } from '@kruise-ts/app-config';
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { resourceClient } from '@kruise-ts/controller-runtime';
import { FakeClient, FakeEventRecorder } from '@kruise-ts/controller-runtime/testing';
import { pvcResource } from '@kruise-ts/workload';

import { statefulSet, webSpec } from '../../test/fixtures/reconcile-fixture.ts';
import {
  claimsCompleted,
  claimsMatch,
  claimsReady,
  ClaimNotExpandableError,
  expandClaims,
  podClaims,
  resizesClaims,
} from './claim-resize.ts';

const TEMPLATE = {
  metadata: { name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } },
};

function claim(
  name: string,
  options: { request: string; capacity?: string; accessModes?: string[]; resizePending?: boolean; deleting?: boolean },
): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace: 'ns',
      ...(options.deleting === true ? { deletionTimestamp: '2026-11-24T10:00:00Z' } : {}),
    },
    spec: {
      accessModes: options.accessModes ?? ['ReadWriteOnce'],
      resources: { requests: { storage: options.request } },
    },
    status: {
      ...(options.capacity === undefined ? {} : { capacity: { storage: options.capacity } }),
      ...(options.resizePending === true ? { conditions: [{ type: 'FileSystemResizePending', status: 'True' }] } : {}),
    },
  };
}

const set = statefulSet({
  spec: webSpec(2, { volumeClaimTemplates: [TEMPLATE], volumeClaimUpdateStrategy: { type: 'OnPodRollingUpdate' } }),
});
const pod: Pod = { metadata: { name: 'web-1', namespace: 'ns' } };

function claimsOf(...claims: PersistentVolumeClaim[]): ReturnType<typeof podClaims> {
  return podClaims({ set, claims: new Map(claims.map((c) => [c.metadata?.name ?? '', c])) }, pod);
}

describe('resizesClaims', () => {
  it('needs the gate and OnPodRollingUpdate', () => {
    const on = parseFeatureGates('StatefulSetAutoResizePVCGate=true');
    expect(resizesClaims(on, set)).toBe(true);
    expect(resizesClaims(parseFeatureGates(''), set)).toBe(false);
    expect(
      resizesClaims(
        on,
        statefulSet({
          spec: webSpec(2, { volumeClaimTemplates: [TEMPLATE], volumeClaimUpdateStrategy: { type: 'OnDelete' } }),
        }),
      ),
    ).toBe(false);
    expect(resizesClaims(on, statefulSet({ spec: webSpec(2, { volumeClaimTemplates: [TEMPLATE] }) }))).toBe(false);
  });
});

describe('a pod’s claims against their template', () => {
  it('finds the ordinal’s claims, not those being deleted or of other ordinals', () => {
    expect(
      claimsOf(claim('data-web-1', { request: '1Gi' }), claim('data-web-0', { request: '1Gi' })).map(
        (entry) => entry.claim.metadata?.name,
      ),
    ).toEqual(['data-web-1']);
    expect(claimsOf(claim('data-web-1', { request: '1Gi', deleting: true }))).toEqual([]);
  });

  it.each([
    { request: '1Gi', capacity: '1Gi', matched: false, ready: true, completed: false },
    { request: '2Gi', capacity: '1Gi', matched: true, ready: false, completed: false },
    { request: '2Gi', capacity: '1Gi', resizePending: true, matched: true, ready: false, completed: true },
    { request: '2Gi', capacity: '2Gi', matched: true, ready: true, completed: true },
    { request: '3Gi', capacity: '3Gi', matched: true, ready: true, completed: true },
  ])(
    'request $request, capacity $capacity: matched $matched, ready $ready, completed $completed',
    ({ matched, ready, completed, ...options }) => {
      const claims = claimsOf(claim('data-web-1', options));
      expect([claimsMatch(claims), claimsReady(claims), claimsCompleted(claims)]).toEqual([matched, ready, completed]);
    },
  );
});

describe('expandClaims', () => {
  function context(...claims: PersistentVolumeClaim[]): {
    fake: FakeClient;
    recorder: FakeEventRecorder;
    run: () => Promise<void>;
  } {
    const fake = new FakeClient();
    fake.seed(pvcResource, claims);
    const recorder = new FakeEventRecorder();
    const owner = {
      key: 'ns/web',
      name: 'web',
      lifecycle: undefined,
      ref: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web', namespace: 'ns', uid: 'sts-web' },
    };
    const run = (): Promise<void> =>
      expandClaims(
        { claims: resourceClient(fake, pvcResource), recorder },
        { set, owner },
        { pod, claims: claimsOf(...claims) },
      );
    return { fake, recorder, run };
  }

  it('raises the request to the template’s, marks the claim as OpenKruise does, and says so', async () => {
    const { fake, recorder, run } = context(claim('data-web-1', { request: '1Gi', capacity: '1Gi' }));
    await run();
    const [stored] = fake.objects(pvcResource);
    expect(stored?.spec?.resources?.requests?.['storage']).toBe('2Gi');
    expect(stored?.metadata?.annotations?.['apps.kruise.io/owned-by-asts']).toBe('web');
    expect(recorder.events).toMatchObject([
      {
        type: 'Normal',
        reason: 'SuccessfulResize',
        message: 'resize Claim data-web-1 Pod web-1 in StatefulSet web success',
      },
    ]);
  });

  it('refuses a claim that differs in more than its size, with a Warning, and writes nothing', async () => {
    const { fake, recorder, run } = context(claim('data-web-1', { request: '1Gi', accessModes: ['ReadWriteMany'] }));
    await expect(run()).rejects.toBeInstanceOf(ClaimNotExpandableError);
    expect(fake.writes()).toEqual([]);
    expect(recorder.events).toMatchObject([{ type: 'Warning', reason: 'FailedUpdatePVC' }]);
  });
});
