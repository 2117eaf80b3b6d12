/**
 * Takes the steps of a migration on the cluster: scale the CloneSet up, wait until its new pods are
 * available, scale the Deployment down, wait until its controller has followed. Waits poll the API
 * server (a step takes seconds: pods have to start) and give up after `timeoutMs` each; everything is
 * read back from the server, so a re-run after a timeout or an interruption picks up where this left.
 */
import type { ObjectKeyRef, Reader, ResourceType, Writer } from '@kruise-ts/controller-runtime';

import { cloneSetObjectResource, deploymentResource } from './objects.ts';
import type { CloneSetObject, Deployment } from './objects.ts';
import { planSteps } from './plan.ts';
import type { Replicas } from './plan.ts';
import { formatDuration, podCount, stepLine } from './report.ts';
import type { DisplayNames } from './report.ts';

export const POLL_INTERVAL_MS = 500;

/** Where the migration runs, and how it tells time; tests pass a fake clock. */
export interface MigrationRuntime {
  readonly client: Reader & Writer;
  readonly print: (line: string) => void;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

export interface Migration {
  readonly deployment: ObjectKeyRef;
  readonly cloneSet: ObjectKeyRef;
  readonly names: DisplayNames;
  readonly target: number;
  readonly current: Replicas;
  readonly maxSurge: number;
  readonly timeoutMs: number;
}

/** A wait that ran out of time; its message says where the migration stopped. */
export class MigrationTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationTimeoutError';
  }
}

export async function runMigration(runtime: MigrationRuntime, migration: Migration): Promise<void> {
  const planned = planSteps(migration);
  // Already complete: one step that changes nothing and checks that the pods are there.
  const steps = planned.length === 0 ? [{ cloneSet: migration.target, deployment: 0 }] : planned;
  let current = migration.current;
  for (const [index, step] of steps.entries()) {
    const position = { step: index + 1, steps: steps.length };
    const ready = await takeStep(runtime, migration, { from: current, to: step, position });
    current = step;
    runtime.print(
      stepLine(migration.names, { ...position, ready, target: migration.target, deployment: step.deployment }),
    );
  }
}

interface StepInput {
  readonly from: Replicas;
  readonly to: Replicas;
  readonly position: { readonly step: number; readonly steps: number };
}

/** One step; returns the CloneSet's available pods after it. */
async function takeStep(runtime: MigrationRuntime, migration: Migration, input: StepInput): Promise<number> {
  const { from, to, position } = input;
  const { names } = migration;
  if (to.cloneSet !== from.cloneSet) {
    await scale(runtime.client, { resource: cloneSetObjectResource, key: migration.cloneSet }, to.cloneSet);
  }
  const cloneSet = await waitUntil(runtime, migration.timeoutMs, {
    read: () => runtime.client.get(cloneSetObjectResource, migration.cloneSet),
    done: (object) => observed(object) && (object.status?.availableReplicas ?? 0) >= to.cloneSet,
    timeout: (object) =>
      stopped(migration, position, {
        state: { cloneSet: to.cloneSet, deployment: from.deployment },
        waitingFor: `${names.cloneSet} to have ${podCount(to.cloneSet)} available (it has ${String(object.status?.availableReplicas ?? 0)})`,
      }),
  });
  if (to.deployment !== from.deployment) {
    await scale(runtime.client, { resource: deploymentResource, key: migration.deployment }, to.deployment);
  }
  await waitUntil(runtime, migration.timeoutMs, {
    read: () => runtime.client.get(deploymentResource, migration.deployment),
    done: (object) => observed(object) && (object.status?.replicas ?? 0) <= to.deployment,
    timeout: (object) =>
      stopped(migration, position, {
        state: to,
        waitingFor: `${names.deployment} to scale down to ${podCount(to.deployment)} (it has ${String(object.status?.replicas ?? 0)})`,
      }),
  });
  return cloneSet.status?.availableReplicas ?? 0;
}

function scale(
  client: Writer,
  object: { readonly resource: ResourceType<Deployment> | ResourceType<CloneSetObject>; readonly key: ObjectKeyRef },
  replicas: number,
): Promise<unknown> {
  return client.patch(object.resource, object.key, { type: 'merge', body: { spec: { replicas } } });
}

/** The controller has acted on the latest spec, so its status counts are about it. */
function observed(object: Deployment | CloneSetObject): boolean {
  return (object.status?.observedGeneration ?? 0) >= (object.metadata.generation ?? 0);
}

interface Wait<T> {
  readonly read: () => Promise<T>;
  readonly done: (object: T) => boolean;
  /** The error when time runs out, given the last state read. */
  readonly timeout: (object: T) => MigrationTimeoutError;
}

async function waitUntil<T>(runtime: MigrationRuntime, timeoutMs: number, wait: Wait<T>): Promise<T> {
  const deadline = runtime.now() + timeoutMs;
  for (;;) {
    const object = await wait.read();
    if (wait.done(object)) {
      return object;
    }
    if (runtime.now() >= deadline) {
      throw wait.timeout(object);
    }
    await runtime.sleep(POLL_INTERVAL_MS);
  }
}

function stopped(
  migration: Migration,
  position: StepInput['position'],
  where: { readonly state: Replicas; readonly waitingFor: string },
): MigrationTimeoutError {
  const { names } = migration;
  return new MigrationTimeoutError(
    [
      `timed out after ${formatDuration(migration.timeoutMs)} waiting for ${where.waitingFor}, at step ${String(position.step)}/${String(position.steps)}`,
      `the migration stopped with ${names.cloneSet} scaled to ${String(where.state.cloneSet)} and ${names.deployment} to ${String(where.state.deployment)}; run the same command again to resume it`,
    ].join('\n'),
  );
}
