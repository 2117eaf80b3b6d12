/**
 * What the workload apps' sync fixtures share around a FakeClient: a tiny kubelet that makes stored
 * pods Running (Ready once their readiness gates are True), what the pod and PVC informers' handlers
 * do with the fixture's own creations and deletions, and the loop that reconciles until nothing is
 * written any more.
 */
import type { Pod } from '@kruise-ts/api';

import type { ReconcileContext, Reconciler, ResourceType, Result } from '@kruise-ts/controller-runtime';
import { FakeClient, FakeClock, FakeEventRecorder } from '@kruise-ts/controller-runtime/testing';
import type { FakeAction } from '@kruise-ts/controller-runtime/testing';

import { ResourceVersionExpectations } from '../expectations/resource-version-expectations.ts';
import { ScaleExpectations } from '../expectations/scale-expectations.ts';

/** The in-memory parts a workload controller's sync fixture starts from. */
export interface FakeWorkloadParts<G> {
  readonly fake: FakeClient;
  readonly recorder: FakeEventRecorder;
  readonly clock: FakeClock;
  readonly gates: G;
  readonly scaleExpectations: ScaleExpectations;
  readonly resourceVersionExpectations: ResourceVersionExpectations;
}

/** An empty API, a recorder, a clock that moves only when told, the app's `gates` and both expectations on that clock. */
export function fakeWorkloadParts<G>(gates: G): FakeWorkloadParts<G> {
  const clock = new FakeClock();
  return {
    fake: new FakeClient(),
    recorder: new FakeEventRecorder(),
    clock,
    gates,
    scaleExpectations: new ScaleExpectations({ clock }),
    resourceVersionExpectations: new ResourceVersionExpectations({ clock }),
  };
}

/** How the fake kubelet runs pods. */
export interface RunFakePodsOptions {
  /** The pods' resource (`podResource` of `@kruise-ts/workload`). */
  readonly pods: ResourceType<Pod>;
  /** When the pods became Ready, in ms. */
  readonly readySince: number;
  /** Only these pods (all when absent). */
  readonly names?: readonly string[];
  /** The digest part of each container's imageID (a new one tells an in-place update that the container restarted). */
  readonly digestOf?: (pod: Pod) => string;
}

function isReadyByGates(pod: Pod): boolean {
  const conditions = pod.status?.conditions ?? [];
  return (pod.spec?.readinessGates ?? []).every((gate) =>
    conditions.some((condition) => condition.type === gate.conditionType && condition.status === 'True'),
  );
}

/** Every stored pod (or those named) Running, its containers running their spec images. */
export async function runFakePods(fake: FakeClient, options: RunFakePodsOptions): Promise<void> {
  const since = new Date(options.readySince).toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const pod of fake
    .objects(options.pods)
    .filter((candidate) => options.names === undefined || options.names.includes(candidate.metadata?.name ?? ''))) {
    const ready = isReadyByGates(pod);
    const digest = options.digestOf?.(pod) ?? '0';
    await fake.patchStatus(
      options.pods,
      { namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' },
      {
        type: 'strategic',
        body: {
          status: {
            phase: 'Running',
            conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: since }],
            containerStatuses: (pod.spec?.containers ?? []).map((container) => ({
              name: container.name,
              image: container.image ?? '',
              imageID: `${container.image ?? ''}@sha256:${digest}`,
              ready,
              restartCount: 0,
              started: true,
              state: { running: { startedAt: since } },
            })),
          },
        },
      },
    );
  }
  fake.clearActions();
}

/** What the pod and PVC informers' handlers do: the fixture's creations and deletions are seen at once. */
export function observeScaleActions(
  actions: readonly FakeAction[],
  input: { readonly key: string; readonly expectations: ScaleExpectations },
): void {
  for (const action of actions) {
    if (
      (action.resource === 'pods' || action.resource === 'persistentvolumeclaims') &&
      (action.verb === 'create' || action.verb === 'delete')
    ) {
      input.expectations.observe(input.key, action.verb, action.name);
    }
  }
}

/** One reconcile of `namespace/name`, whose pod and PVC creations and deletions the fixture's informers then see. */
export async function reconcileObservingScale(
  fake: FakeClient,
  reconciler: Reconciler,
  input: {
    readonly namespace: string;
    readonly name: string;
    readonly expectations: ScaleExpectations;
    readonly context: ReconcileContext;
  },
): Promise<Result | undefined> {
  const before = fake.actions.length;
  try {
    return await reconciler.reconcile(input.context, { namespace: input.namespace, name: input.name });
  } finally {
    observeScaleActions(fake.actions.slice(before), {
      key: `${input.namespace}/${input.name}`,
      expectations: input.expectations,
    });
  }
}

/** A fixture that reconciles one owner and runs its pods. */
export interface SettleInput {
  readonly fake: FakeClient;
  readonly reconcile: () => Promise<unknown>;
  /** The fake kubelet, after each round. */
  readonly runPods: () => Promise<void>;
  /** The owner's plural (its own status writes do not count as work). */
  readonly owner: string;
  /** Its Events are cleared once the owner settled. */
  readonly recorder?: FakeEventRecorder;
}

/** Reconciles until a round writes nothing but Events and the owner's status (at most `rounds` times). */
export async function settleReconciles(input: SettleInput, rounds: number): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    input.fake.clearActions();
    await input.reconcile();
    const wrote = input.fake
      .writes()
      .some(
        (action) =>
          action.resource !== 'events' && !(action.resource === input.owner && action.subresource === 'status'),
      );
    await input.runPods();
    if (!wrote) {
      input.fake.clearActions();
      if (input.recorder !== undefined) {
        input.recorder.events.length = 0;
      }
      return;
    }
  }
  throw new Error(`the ${input.owner} object did not settle in ${String(rounds)} reconciles`);
}
