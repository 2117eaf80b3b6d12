/**
 * The frame of a reconciler's unit test over the in-memory API (FakeClient): the reconciled objects
 * seeded as the starting state, Events recorded, a clock that stands still, and one reconcile or the
 * stored object by name in one namespace. The app's fixture builds its reconciler on these parts and
 * adds its own views.
 */
import type { KubeObject } from '../client/kube-object.ts';
import type { ResourceType } from '../client/resource-type.ts';
import { createLogger } from '../log/logger.ts';
import type { Reconciler, Result } from '../reconcile/reconcile.ts';
import { FakeClient } from './fake-client.ts';
import { FakeClock } from './fake-clock.ts';
import { FakeEventRecorder } from './fake-event-recorder.ts';

/** What the reconciler under test is built on. */
export interface FakeReconcileParts {
  readonly fake: FakeClient;
  readonly recorder: FakeEventRecorder;
  readonly clock: FakeClock;
}

export interface FakeReconcileOptions<T extends KubeObject> {
  /** The reconciled kind; `objects` are seeded as the starting state. */
  readonly resource: ResourceType<T>;
  readonly objects: readonly T[];
  /** The namespace `reconcile` asks about. */
  readonly namespace: string;
  /** The name `reconcile` and `stored` use when given none. */
  readonly name: string;
  /** The reconciler under test; more starting state may be seeded into `parts.fake` here. */
  readonly reconciler: (parts: FakeReconcileParts) => Reconciler;
}

export interface FakeReconcileFixture<T extends KubeObject> {
  readonly fake: FakeClient;
  readonly recorder: FakeEventRecorder;
  /** One reconcile of the named object. */
  reconcile(name?: string): Promise<Result | undefined>;
  /** The named object as stored; throws when there is none. */
  stored(name?: string): T;
}

const silent = createLogger({ level: 'silent' });

export function fakeReconcileFixture<T extends KubeObject>(options: FakeReconcileOptions<T>): FakeReconcileFixture<T> {
  const { resource, namespace } = options;
  const fake = new FakeClient();
  fake.seed(resource, options.objects);
  const recorder = new FakeEventRecorder();
  const reconciler = options.reconciler({ fake, recorder, clock: new FakeClock() });
  return {
    fake,
    recorder,
    reconcile: (name = options.name) =>
      reconciler.reconcile(
        { signal: new AbortController().signal, logger: silent, reconcileId: 'test' },
        { namespace, name },
      ),
    stored: (name = options.name) => {
      const object = fake.objects(resource).find((candidate) => candidate.metadata?.name === name);
      if (object === undefined) {
        throw new Error(`no ${resource.kind} ${name}`);
      }
      return object;
    },
  };
}
