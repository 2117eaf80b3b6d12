import { describe, expect, it } from 'vitest';

import { createLogger, TerminalError } from '@kruise-ts/controller-runtime';
import type { ReconcileContext, Request, ResourceType } from '@kruise-ts/controller-runtime';
import { fakeApiError, FakeClient, FakeClock, FakeEventRecorder } from '@kruise-ts/controller-runtime/testing';

import { ResourceVersionExpectations } from './expectations/resource-version-expectations.ts';
import type { ParsedObject } from './cached-parse.ts';
import type { WorkloadCondition } from './conditions.ts';
import { reconcileWorkload } from './reconcile-workload.ts';
import type { WorkloadReconcileSteps } from './reconcile-steps.ts';
import type { ReportedProblem } from './reported-problem.ts';
import type { SyncOutcome } from './sync-outcome.ts';

interface Toy {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: { namespace?: string; name?: string; uid?: string; generation?: number; resourceVersion?: string };
  readonly spec: { readonly size: number };
  readonly status?: { readonly count: number; readonly conditions?: WorkloadCondition[] };
}
type ToyStatus = NonNullable<Toy['status']>;

const toyResource: ResourceType<Toy> = {
  group: 'toys.test',
  version: 'v1',
  plural: 'toys',
  kind: 'Toy',
  namespaced: true,
};
const REQUEST: Request = { namespace: 'ns', name: 'toy' };
const BROKEN: ReportedProblem = {
  type: 'Broken',
  reason: 'Unreadable',
  message: 'spec.size: bad',
  eventReason: 'Broken',
};

/** One case: how the steps answer, and what the reconcile must do. */
interface Case {
  readonly name: string;
  readonly toy?: Toy;
  readonly parse?: ParsedObject<Toy>;
  readonly validate?: ReportedProblem;
  readonly waitForCache?: number;
  readonly outcome?: SyncOutcome<ToyStatus>;
  readonly statusNotFound?: boolean;
  readonly aborted?: boolean;
  readonly want: {
    readonly result?: { requeueAfterMs?: number } | undefined;
    readonly throws?: 'terminal' | 'failure';
    readonly status?: Partial<ToyStatus> & { observedGeneration?: number };
    readonly events?: string[];
    readonly forgotten?: boolean;
    readonly synced?: boolean;
  };
}

const TOY: Toy = { metadata: { ...REQUEST, uid: 'u-1', generation: 3 }, spec: { size: 2 } };
const FAILURE = new Error('pods "toy-1" is forbidden');

const cases: Case[] = [
  { name: 'a deleted workload is forgotten', want: { result: undefined, forgotten: true } },
  {
    name: 'an unreadable spec: Warning, condition, zero counts, observedGeneration, TerminalError',
    toy: TOY,
    parse: { kind: 'invalid', message: 'spec.size: bad' },
    want: { throws: 'terminal', events: ['Broken'], status: { count: 0, observedGeneration: 3 } },
  },
  {
    name: 'an invalid template is reported the same way, with its own problem',
    toy: TOY,
    validate: { ...BROKEN, type: 'FailedCreate', eventReason: 'FailedCreate' },
    want: { throws: 'terminal', events: ['FailedCreate'], status: { count: 0, observedGeneration: 3 } },
  },
  {
    name: 'an unusable spec the sync finds is reported too',
    toy: TOY,
    outcome: { kind: 'unusable', problem: BROKEN },
    want: { throws: 'terminal', events: ['Broken'], synced: true },
  },
  {
    name: 'an unreadable spec of a workload deleted meanwhile ends quietly',
    toy: TOY,
    parse: { kind: 'invalid', message: 'spec.size: bad' },
    statusNotFound: true,
    want: { result: undefined, events: ['Broken'] },
  },
  {
    name: 'a cache that lags waits before the sync',
    toy: TOY,
    waitForCache: 250,
    want: { result: { requeueAfterMs: 250 }, synced: false },
  },
  {
    name: 'a sync that waits for the cache requeues',
    toy: TOY,
    outcome: { kind: 'waiting', reason: 'stale pod', delayMs: 1000 },
    want: { result: { requeueAfterMs: 1000 }, synced: true },
  },
  {
    name: 'the status is written and the shorter delay of the sync and what follows it returned',
    toy: TOY,
    outcome: {
      kind: 'synced',
      status: { count: 2 },
      result: { requeueAfterMs: 5000 },
      afterStatus: () => Promise.resolve({ requeueAfterMs: 2000 }),
    },
    want: { result: { requeueAfterMs: 2000 }, status: { count: 2 } },
  },
  {
    name: 'a failed sync is thrown once the status says so',
    toy: TOY,
    outcome: { kind: 'synced', status: { count: 1 }, failure: FAILURE },
    want: { throws: 'failure', status: { count: 1 } },
  },
  {
    name: 'a workload deleted during its status write ends quietly, failure or not',
    toy: TOY,
    outcome: { kind: 'synced', status: { count: 1 }, failure: FAILURE },
    statusNotFound: true,
    want: { result: undefined },
  },
];

function setup(c: Case) {
  const fake = new FakeClient();
  fake.seed(toyResource, c.toy === undefined ? [] : [c.toy]);
  if (c.statusNotFound === true) {
    fake.prependReactor({ verb: 'patch', resource: 'toys', subresource: 'status' }, () => {
      throw fakeApiError({ code: 404, reason: 'NotFound', message: 'toys "toy" not found' });
    });
  }
  const recorder = new FakeEventRecorder();
  const seen = { forgotten: false, synced: false };
  const steps: WorkloadReconcileSteps<Toy, ToyStatus> = {
    clients: {
      resource: toyResource,
      api: fake,
      recorder,
      clock: new FakeClock(),
      resourceVersionExpectations: new ResourceVersionExpectations(),
    },
    get: () => fake.objects(toyResource)[0],
    forget: () => {
      seen.forgotten = true;
    },
    parse: (cached) => c.parse ?? { kind: 'valid', object: cached },
    unreadable: (message) => ({ ...BROKEN, message }),
    zeroCounts: { count: 0 },
    observesGeneration: true,
    validate: () => Promise.resolve(c.validate),
    waitForCache: () =>
      c.waitForCache === undefined ? undefined : { kind: 'waiting', reason: 'pods', delayMs: c.waitForCache },
    sync: () => {
      seen.synced = true;
      return Promise.resolve(c.outcome ?? { kind: 'synced' });
    },
  };
  return { fake, recorder, steps, seen };
}

describe('reconcileWorkload', () => {
  const context: ReconcileContext = {
    signal: new AbortController().signal,
    logger: createLogger({ level: 'silent' }),
    reconcileId: 'test',
  };

  it.each(cases)('$name', async (c) => {
    const { fake, recorder, steps, seen } = setup(c);
    const run = reconcileWorkload(steps, context, REQUEST);
    if (c.want.throws === 'terminal') {
      await expect(run).rejects.toBeInstanceOf(TerminalError);
    } else if (c.want.throws === 'failure') {
      await expect(run).rejects.toBe(FAILURE);
    } else {
      await expect(run).resolves.toEqual(c.want.result);
    }
    expect(recorder.events.map((event) => event.reason)).toEqual(c.want.events ?? []);
    if (c.want.status !== undefined) {
      expect(fake.objects(toyResource)[0]?.status).toMatchObject(c.want.status);
    }
    expect(seen.forgotten).toBe(c.want.forgotten ?? false);
    if (c.want.synced !== undefined) {
      expect(seen.synced).toBe(c.want.synced);
    }
  });

  it('the Warning of an unusable spec goes out once per problem', async () => {
    const c: Case = { name: 'twice', toy: TOY, parse: { kind: 'invalid', message: 'spec.size: bad' }, want: {} };
    const { recorder, steps } = setup(c);
    await expect(reconcileWorkload(steps, context, REQUEST)).rejects.toBeInstanceOf(TerminalError);
    const written = new ResourceVersionExpectations();
    await expect(
      reconcileWorkload(
        { ...steps, clients: { ...steps.clients, resourceVersionExpectations: written } },
        context,
        REQUEST,
      ),
    ).rejects.toBeInstanceOf(TerminalError);
    expect(recorder.events.map((event) => event.reason)).toEqual(['Broken']);
  });
});
