/**
 * When `migrate` refuses to start, and where it starts from: a fresh migration (no CloneSet yet), or
 * the resumption of one this tool began for the same Deployment. Every refusal comes before anything
 * is written.
 */
import { PreconditionError } from '../cli/cli-errors.ts';
import { copiedTemplate, decodeRecord, MIGRATION_ANNOTATION, templateHash } from './migration-record.ts';
import type { MigrationRecord } from './migration-record.ts';
import type { CloneSetObject, Deployment } from './objects.ts';
import type { Replicas } from './plan.ts';

/** How objects are named in messages (`deployments.apps "web"`), and the command to quote in hints. */
export interface Names {
  readonly deployment: string;
  readonly cloneSet: string;
  /** `deployment/web`, for the kubectl commands a message suggests. */
  readonly deploymentArg: string;
}

export interface Start {
  /** True when a CloneSet of an earlier run exists: nothing is created. */
  readonly resume: boolean;
  /** The pods that move. */
  readonly target: number;
  readonly current: Replicas;
  /** Available pods of both when this run starts (at most the target): the floor the migration keeps. */
  readonly available: number;
}

export function checkStart(deployment: Deployment, cloneSet: CloneSetObject | undefined, names: Names): Start {
  if (deployment.spec.paused === true) {
    throw new PreconditionError(
      `${names.deployment} is paused: resume it first (kubectl rollout resume ${names.deploymentArg})`,
    );
  }
  return cloneSet === undefined ? freshStart(deployment, names) : resumedStart(deployment, cloneSet, names);
}

function freshStart(deployment: Deployment, names: Names): Start {
  const { spec, status } = deployment;
  if (spec.replicas === 0) {
    throw new PreconditionError(`${names.deployment} has 0 replicas: there are no pods to migrate`);
  }
  if (!observed(deployment) || status?.replicas !== spec.replicas || status.updatedReplicas !== spec.replicas) {
    throw new PreconditionError(
      `${names.deployment} is in the middle of a rollout or scaling (${progressOf(deployment)}): wait until kubectl rollout status ${names.deploymentArg} reports it done`,
    );
  }
  return {
    resume: false,
    target: spec.replicas,
    current: { cloneSet: 0, deployment: spec.replicas },
    available: status.availableReplicas ?? 0,
  };
}

function resumedStart(deployment: Deployment, cloneSet: CloneSetObject, names: Names): Start {
  const record = ownRecord(deployment, cloneSet, names);
  if (record.templateHash !== templateHash(copiedTemplate(deployment.spec.template))) {
    throw new PreconditionError(
      `the template of ${names.deployment} changed after ${names.cloneSet} was created from it: the CloneSet runs the old template, so the migration does not go on`,
    );
  }
  if (inRollout(deployment)) {
    throw new PreconditionError(
      `${names.deployment} is in the middle of a rollout (${progressOf(deployment)}): wait until kubectl rollout status ${names.deploymentArg} reports it done`,
    );
  }
  if (cloneSet.spec.replicas > record.replicas) {
    throw new PreconditionError(
      `${names.cloneSet} has ${String(cloneSet.spec.replicas)} replicas, more than the ${String(record.replicas)} its migration moves: it was scaled outside the migration`,
    );
  }
  return {
    resume: true,
    target: record.replicas,
    current: { cloneSet: cloneSet.spec.replicas, deployment: deployment.spec.replicas },
    // Surge pods of an interrupted step are not kept: the floor is what a finished step leaves.
    available: Math.min(record.replicas, availableOf(deployment) + availableOf(cloneSet)),
  };
}

/** Pods of an older template still run: a rollout is under way (scaling alone keeps one ReplicaSet). */
function inRollout(deployment: Deployment): boolean {
  return observed(deployment) && (deployment.status?.updatedReplicas ?? 0) < (deployment.status?.replicas ?? 0);
}

function availableOf(object: Deployment | CloneSetObject): number {
  return object.status?.availableReplicas ?? 0;
}

/** The CloneSet's record of a migration of this very Deployment (same uid); anything else is refused. */
function ownRecord(deployment: Deployment, cloneSet: CloneSetObject, names: Names): MigrationRecord {
  const record = decodeRecord(cloneSet.metadata.annotations?.[MIGRATION_ANNOTATION]);
  if (record?.uid !== deployment.metadata.uid) {
    throw new PreconditionError(
      `${names.cloneSet} already exists and was not created by a migration of ${names.deployment}: choose another name with --name`,
    );
  }
  return record;
}

/** Its controller has acted on its latest spec, so the status counts are about that spec. */
function observed(deployment: Deployment): boolean {
  return deployment.status?.observedGeneration === deployment.metadata.generation;
}

function progressOf(deployment: Deployment): string {
  const { spec, status } = deployment;
  const counts = `${String(spec.replicas)} desired, ${String(status?.replicas ?? 0)} current, ${String(status?.updatedReplicas ?? 0)} updated`;
  return observed(deployment) ? counts : `${counts}, its latest change not yet observed`;
}
