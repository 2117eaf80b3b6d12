/**
 * The demo's Advanced StatefulSet, next to the CloneSet: three pods with a PVC each, created in
 * parallel, then an in-place image update that keeps every pod and claim.
 */
import { statefulSetResource } from '@kruise-ts/advanced-statefulset';
import type { StatefulSet } from '@kruise-ts/api';
import { isNotFound } from '@kruise-ts/controller-runtime';
import { pvcResource } from '@kruise-ts/workload';

import { podsOf, until } from './cloneset-steps.ts';
import type { StepContext } from './cloneset-steps.ts';

const NAME = 'demo-db';
const SELECTOR = `app=${NAME}`;

/** What the Advanced StatefulSet part showed. */
export interface StatefulSetDemoResult {
  readonly pods: number;
  readonly createdMs: number;
  readonly updatedMs: number;
  readonly podsKept: number;
  readonly claimsKept: number;
}

function sampleSet(namespace: string, image: string): StatefulSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: NAME, namespace },
    spec: {
      replicas: 3,
      serviceName: NAME,
      podManagementPolicy: 'Parallel',
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: NAME } },
      template: {
        metadata: { labels: { app: NAME } },
        spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'db', image }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { partition: 0, maxUnavailable: 2, podUpdatePolicy: 'InPlaceIfPossible', minReadySeconds: 0 },
      },
    },
  };
}

async function settled(ctx: StepContext, image: string): Promise<boolean> {
  const set = await ctx.client.get(statefulSetResource, { namespace: ctx.namespace, name: NAME });
  const status = set.status;
  const pods = await podsOf(ctx, SELECTOR);
  return (
    status !== undefined &&
    status.observedGeneration === set.metadata.generation &&
    status.readyReplicas === 3 &&
    status.updatedReplicas === 3 &&
    pods.every((pod) => pod.spec?.containers[0]?.image === image)
  );
}

async function claimUids(ctx: StepContext): Promise<string[]> {
  return (await ctx.client.list(pvcResource, { namespace: ctx.namespace })).items
    .filter((claim) => claim.metadata?.name?.startsWith(`data-${NAME}-`) === true)
    .map((claim) => claim.metadata?.uid ?? '');
}

/** Creates the set (replacing one left by an earlier run), waits for it, updates it in place, and measures. */
export async function playStatefulSet(
  ctx: StepContext,
  images: { readonly from: string; readonly to: string },
): Promise<StatefulSetDemoResult> {
  const key = { namespace: ctx.namespace, name: NAME };
  await ctx.client.delete(statefulSetResource, key, { propagationPolicy: 'Foreground' }).catch((error: unknown) => {
    if (!isNotFound(error)) {
      throw error;
    }
  });
  await until(ctx, `the old ${NAME} to be gone`, () =>
    ctx.client.get(statefulSetResource, key).then(
      () => false,
      (error: unknown) => isNotFound(error),
    ),
  );
  const started = performance.now();
  await ctx.client.create(statefulSetResource, sampleSet(ctx.namespace, images.from));
  await until(ctx, `${NAME} to have 3 ready pods`, () => settled(ctx, images.from));
  const createdMs = performance.now() - started;
  const pods = (await podsOf(ctx, SELECTOR)).map((pod) => pod.metadata?.uid ?? '');
  const claims = await claimUids(ctx);
  const updateStarted = performance.now();
  await ctx.client.patch(statefulSetResource, key, {
    type: 'merge',
    body: { spec: { template: { spec: { containers: [{ name: 'db', image: images.to }] } } } },
  });
  await until(ctx, `${NAME} to be updated in place`, () => settled(ctx, images.to));
  const after = (await podsOf(ctx, SELECTOR)).map((pod) => pod.metadata?.uid ?? '');
  const claimsAfter = await claimUids(ctx);
  return {
    pods: after.length,
    createdMs,
    updatedMs: performance.now() - updateStarted,
    podsKept: after.filter((uid) => pods.includes(uid)).length,
    claimsKept: claimsAfter.filter((uid) => claims.includes(uid)).length,
  };
}
