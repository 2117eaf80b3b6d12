/**
 * What the CloneSet controller does when things fail, on a real API server: creations the API server
 * refuses (a quota; an invalid template is caught before, see validation-webhook.test.ts) back off (per CloneSet, exponentially) and recover as soon as the cause is fixed; a pod with
 * an unreadable in-place update annotation is reported and skipped while the others are updated; a
 * template Go cannot decode is reported without a single pod write.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { CoreV1Api } from '@kubernetes/client-node';
import type { CoreV1Event } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import type { CloneSet } from '@kruise-ts/api';
import { forbidPods, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import {
  activePods,
  createCloneSet,
  RequestLog,
  rolledOut,
  settled,
  testClient,
  waitForStatus,
  webCloneSet,
  withController,
} from '../support/harness.ts';
import type { SentRequest } from '../support/harness.ts';
import { imageOf, isAvailableNow, nameOf, uidOf } from '../support/pods.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const core = kubeConfig.makeApiClient(CoreV1Api);

const POD_COLLECTION = /^\/api\/v1\/namespaces\/[^/]+\/pods$/;
/**
 * The backoff test runs the per-item backoff at half its default time scale (`--rate-limiter-base-delay`
 * 2.5 ms instead of 5 ms; the defaults are unit-tested with the flags), so every figure of the
 * measurement is halved: the same retries in a 30 s window as in 60 s with the defaults.
 */
const BASE_DELAY_MS = 2.5;
const WINDOW_MS = 30_000;
const POD_OBJECT = /^\/api\/v1\/namespaces\/[^/]+\/pods\/[^/]+(\/[^/]+)?$/;

/** A request that changes a pod; a dry run (the template check) stores nothing. */
function isPodWrite(request: SentRequest): boolean {
  return (
    request.verb !== 'get' &&
    !request.verb.endsWith('(dry run)') &&
    (POD_COLLECTION.test(request.path) || POD_OBJECT.test(request.path))
  );
}

function condition(
  cs: CloneSet,
  type: string,
): NonNullable<NonNullable<CloneSet['status']>['conditions']>[number] | undefined {
  return cs.status?.conditions?.find((c) => c.type === type);
}

async function warningEvent(
  namespace: string,
  match: (event: CoreV1Event) => boolean,
  description: string,
): Promise<CoreV1Event> {
  return waitFor(
    async () => {
      const events = await core.listNamespacedEvent({ namespace, fieldSelector: 'involvedObject.name=web' });
      return events.items.find((event) => event.type === 'Warning' && match(event));
    },
    { description },
  );
}

describe('CloneSet failures', () => {
  it('backs off when every pod creation fails (requests over 30 s at a 2.5 ms base delay grow logarithmically, not linearly) and recovers at once when the cause is fixed', async () => {
    const log = new RequestLog();
    await withController(
      'fail-create',
      async (namespace) => {
        // A quota of no pods: the template is valid (its dry run passes, a quota refusal is not the
        // template's fault), and every real creation is refused.
        await forbidPods(kubeConfig, namespace);
        const started = performance.now();
        await createCloneSet(client, namespace, webCloneSet(2));
        const failing = await waitForStatus(
          client,
          { namespace, name: 'web', description: 'the FailedScale condition' },
          (cs) => condition(cs, 'FailedScale')?.status === 'True',
        );
        expect(condition(failing, 'FailedScale')?.message).toContain('exceeded quota');
        const event = await warningEvent(namespace, (e) => e.reason === 'FailedCreate', 'the FailedCreate event');
        expect(event.message).toContain('exceeded quota');

        // The measurement window itself, not a wait for something to happen.
        await sleep(Math.max(0, started + WINDOW_MS - performance.now()));
        const creates = log.matching('create', POD_COLLECTION).map((request) => request.sentAt - started);
        const gaps = creates.slice(1).map((at, index) => at - (creates[index] ?? 0));
        // Retrying every second would be 30 requests; the 2.5 ms → 1000 s per-item backoff gives about 14.
        expect(creates.length, `creations at ${JSON.stringify(creates.map(Math.round))} ms`).toBeGreaterThanOrEqual(8);
        expect(creates.length, `creations at ${JSON.stringify(creates.map(Math.round))} ms`).toBeLessThanOrEqual(20);
        expect(Math.max(...gaps), `gaps ${JSON.stringify(gaps.map(Math.round))} ms`).toBeGreaterThan(4000);

        // The user lifts the quota and edits the CloneSet: the edit reconciles it at once, not after the backoff.
        await core.deleteNamespacedResourceQuota({ namespace, name: 'no-pods' });
        await waitFor(
          async () => ((await core.listNamespacedResourceQuota({ namespace })).items.length === 0 ? true : undefined),
          { description: 'the quota gone' },
        );
        const fixedAt = performance.now();
        await client.patch(
          cloneSetResource,
          { namespace, name: 'web' },
          { type: 'merge', body: { metadata: { annotations: { fixed: 'quota' } } } },
        );
        const fixed = await waitForStatus(
          client,
          { namespace, name: 'web', description: 'the pods created after the fix' },
          settled,
        );
        const firstSuccess = log.requests.find(
          (request) => request.verb === 'create' && POD_COLLECTION.test(request.path) && request.code === '201',
        );
        // The next retry was due 10 s or more later; the edit's own watch event triggered this one.
        expect((firstSuccess?.sentAt ?? Number.POSITIVE_INFINITY) - fixedAt).toBeLessThan(Math.max(...gaps));
        expect(condition(fixed, 'FailedScale')).toBeUndefined();
      },
      { requestObservers: [log], rateLimiter: { baseDelayMs: BASE_DELAY_MS } },
    );
  }, 180_000);

  it('reports and skips a pod whose in-place update annotation cannot be read, and updates the others', async () => {
    await withController('fail-annotation', async (namespace) => {
      await createCloneSet(
        client,
        namespace,
        webCloneSet(3, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 } }),
      );
      await waitForStatus(client, { namespace, name: 'web', description: 'three pods' }, settled);
      const pods = await activePods(client, namespace, 'app=web');
      const uids = pods.map(uidOf).sort();
      const bad = nameOf(pods[0] ?? {});
      await client.patch(
        podResource,
        { namespace, name: bad },
        { type: 'merge', body: { metadata: { annotations: { 'apps.kruise.io/inplace-update-state': '{not json' } } } },
      );

      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        {
          type: 'json',
          body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.27' }],
        },
      );
      await waitFor(
        async () => {
          const current = await activePods(client, namespace, 'app=web');
          return (
            current.filter((pod) => nameOf(pod) !== bad && imageOf(pod) === 'nginx:1.27' && isAvailableNow(pod))
              .length === 2
          );
        },
        { description: 'the two other pods updated in place' },
      );
      const reported = await waitForStatus(
        client,
        { namespace, name: 'web', description: 'the FailedUpdate condition' },
        (cs) => condition(cs, 'FailedUpdate')?.reason === 'InvalidInPlaceUpdateAnnotation',
      );
      expect(condition(reported, 'FailedUpdate')?.message).toContain(`pod ${bad}: apps.kruise.io/inplace-update-state`);
      const event = await warningEvent(
        namespace,
        (e) => e.reason === 'FailedUpdatePodInPlace' && (e.message ?? '').includes(bad),
        'the FailedUpdatePodInPlace event',
      );
      expect(event.message).toContain('apps.kruise.io/inplace-update-state');
      expect(imageOf(await client.get(podResource, { namespace, name: bad }))).toBe('nginx:1.25');

      // Removing the bad annotation lets the pod be updated, and the condition clears.
      await client.patch(
        podResource,
        { namespace, name: bad },
        { type: 'merge', body: { metadata: { annotations: { 'apps.kruise.io/inplace-update-state': null } } } },
      );
      const done = await waitForStatus(client, { namespace, name: 'web', description: 'all three updated' }, rolledOut);
      expect(condition(done, 'FailedUpdate')).toBeUndefined();
      const after = await activePods(client, namespace, 'app=web');
      expect(after.map(uidOf).sort()).toEqual(uids);
      expect(after.map(imageOf)).toEqual(['nginx:1.27', 'nginx:1.27', 'nginx:1.27']);
    });
  });

  it('reports a template Go cannot decode with an Event and a condition naming the field, moves observedGeneration and writes no pod', async () => {
    const log = new RequestLog();
    await withController(
      'fail-decode',
      async (namespace) => {
        await createCloneSet(client, namespace, webCloneSet(2));
        await waitForStatus(client, { namespace, name: 'web', description: 'two pods' }, settled);
        const uids = (await activePods(client, namespace, 'app=web')).map(uidOf).sort();
        const writesBefore = log.requests.filter((request) => isPodWrite(request)).length;

        // The CRD keeps pod fields it does not declare as written; Go's decoder wants an integer here.
        const edited = await client.patch(
          cloneSetResource,
          { namespace, name: 'web' },
          { type: 'merge', body: { spec: { template: { spec: { terminationGracePeriodSeconds: 'thirty' } } } } },
        );
        const reported = await waitForStatus(
          client,
          { namespace, name: 'web', description: 'the condition for the undecodable template' },
          (cs) => condition(cs, 'FailedScale')?.reason === 'InvalidTemplate',
        );
        expect(reported.status?.observedGeneration).toBe(edited.metadata.generation);
        expect(condition(reported, 'FailedScale')?.message).toContain(
          'spec.template.spec.terminationGracePeriodSeconds',
        );
        const event = await warningEvent(
          namespace,
          (e) => (e.message ?? '').includes('spec.template.spec.terminationGracePeriodSeconds'),
          'the Warning event naming the field',
        );
        expect(event.reason).toBe('FailedCreate');

        const writesAfter = log.requests.filter((request) => isPodWrite(request)).length;
        expect(writesAfter).toBe(writesBefore);
        expect((await activePods(client, namespace, 'app=web')).map(uidOf).sort()).toEqual(uids);

        // Fixed: the template is the old one again, so no pod changes and the condition clears.
        await client.patch(
          cloneSetResource,
          { namespace, name: 'web' },
          { type: 'json', body: [{ op: 'remove', path: '/spec/template/spec/terminationGracePeriodSeconds' }] },
        );
        const healed = await waitForStatus(
          client,
          { namespace, name: 'web', description: 'the condition to clear' },
          (cs) => settled(cs) && condition(cs, 'FailedScale') === undefined,
        );
        expect(healed.status?.replicas).toBe(2);
        expect((await activePods(client, namespace, 'app=web')).map(uidOf).sort()).toEqual(uids);
      },
      { requestObservers: [log] },
    );
  });
});
