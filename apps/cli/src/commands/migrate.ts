/**
 * `migrate deployment/NAME --to cloneset`: a CloneSet made from the Deployment takes its pods over in
 * steps (see migration/plan.ts), then the Deployment is left with 0 replicas. `--dry-run` reads the
 * cluster, has the API server check the CloneSet without storing it, and prints what would happen;
 * a re-run resumes an interrupted migration.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { isNotFound } from '@kruise-ts/controller-runtime';

import type { Cluster } from '../kubeconfig/connect.ts';
import { cloneSetManifest } from '../migration/cloneset-manifest.ts';
import { cloneSetManifestResource, cloneSetObjectResource, deploymentResource } from '../migration/objects.ts';
import type { CloneSetManifest, CloneSetObject } from '../migration/objects.ts';
import { checkObjectName, checkTargetKind } from '../migration/options.ts';
import type { MigrateOptions } from '../migration/options.ts';
import { planSteps, resolveMaxSurge } from '../migration/plan.ts';
import { checkStart } from '../migration/preconditions.ts';
import type { Names, Start } from '../migration/preconditions.ts';
import { doneLines, manifestSummary, planHeader, plannedStepLines } from '../migration/report.ts';
import type { DisplayNames } from '../migration/report.ts';
import { runMigration } from '../migration/run-migration.ts';
import type { Migration } from '../migration/run-migration.ts';
import { KINDS, objectDisplayName, objectErrorName } from '../resources/kinds.ts';
import type { Kind } from '../resources/kinds.ts';
import { parseObjectRef, requireKind } from '../resources/object-ref.ts';
import type { CommandContext } from './command-context.ts';

export async function migrate(
  context: CommandContext,
  args: readonly string[],
  options: MigrateOptions,
): Promise<void> {
  const ref = requireKind(parseObjectRef(args), 'migrate', ['deployment']);
  checkTargetKind(options.to);
  const cloneSetName = options.name ?? ref.name;
  checkObjectName(cloneSetName);
  const cluster = await context.cluster();
  const print = (line: string): void => {
    context.io.stdout(`${line}\n`);
  };
  const { migration, start, manifest } = await prepare(
    cluster,
    { deployment: ref.name, cloneSet: cloneSetName },
    options,
  );
  if (options.dryRun) {
    // The API server checks the CloneSet (schema, CEL rules, validation webhooks) without storing it.
    const summary = start.resume
      ? []
      : [...manifestSummary(manifest, migration.names.cloneSet), await serverDryRun(cluster, manifest)];
    printPlan(print, { migration, start, summary });
    return;
  }
  if (start.resume) {
    print(resumeLine(migration));
  } else {
    await cluster.client.create(cloneSetManifestResource, manifest);
    print(`${migration.names.cloneSet} created`);
  }
  print(
    planHeader(migration.names, { target: start.target, maxSurge: migration.maxSurge, available: start.available }),
  );
  await runMigration(
    { client: cluster.client, print, now: () => context.io.now().getTime(), sleep: (ms) => sleep(ms) },
    migration,
  );
  doneLines(migration.names, {
    target: start.target,
    deleteHint: `kubectl delete deployment ${ref.name} -n ${cluster.namespace}`,
  }).forEach(print);
}

interface Prepared {
  readonly migration: Migration;
  readonly start: Start;
  readonly manifest: CloneSetManifest;
}

/** Reads both objects and decides where the migration starts; refuses (writing nothing) when it cannot. */
async function prepare(
  cluster: Cluster,
  names: { readonly deployment: string; readonly cloneSet: string },
  options: MigrateOptions,
): Promise<Prepared> {
  const deploymentKey = { namespace: cluster.namespace, name: names.deployment };
  const cloneSetKey = { namespace: cluster.namespace, name: names.cloneSet };
  const deployment = await cluster.client.get(deploymentResource, deploymentKey);
  const start = checkStart(
    deployment,
    await readCloneSet(cluster, names.cloneSet),
    errorNames(names.deployment, names.cloneSet),
  );
  const migration: Migration = {
    deployment: deploymentKey,
    cloneSet: cloneSetKey,
    names: displayNames(names.deployment, names.cloneSet),
    target: start.target,
    current: start.current,
    maxSurge: resolveMaxSurge(options.maxSurge, start.target),
    timeoutMs: options.timeout,
  };
  return { migration, start, manifest: cloneSetManifest(deployment, names.cloneSet) };
}

async function readCloneSet(cluster: Cluster, name: string): Promise<CloneSetObject | undefined> {
  try {
    return await cluster.client.get(cloneSetObjectResource, { namespace: cluster.namespace, name });
  } catch (error) {
    if (isNotFound(error)) {
      return undefined;
    }
    throw error;
  }
}

async function serverDryRun(cluster: Cluster, manifest: CloneSetManifest): Promise<string> {
  await cluster.client.create(cloneSetManifestResource, manifest, { dryRun: true });
  return '  accepted by the API server in a server-side dry run';
}

function printPlan(
  print: (line: string) => void,
  plan: { readonly migration: Migration; readonly start: Start; readonly summary: readonly string[] },
): void {
  const { migration, start } = plan;
  print('dry run: nothing is written');
  plan.summary.forEach(print);
  if (start.resume) {
    print(resumeLine(migration));
  }
  print(
    planHeader(migration.names, { target: start.target, maxSurge: migration.maxSurge, available: start.available }),
  );
  plannedStepLines(migration.names, planSteps(migration), start.target).forEach(print);
}

function resumeLine(migration: Migration): string {
  const { names, current, target } = migration;
  return `resuming the migration to ${names.cloneSet} (created by an earlier run): it has ${String(current.cloneSet)} of ${String(target)} replicas, ${names.deployment} ${String(current.deployment)}`;
}

function kindOf(id: Kind['id']): Kind {
  const kind = KINDS.find((candidate) => candidate.id === id);
  if (kind === undefined) {
    throw new Error(`no kind ${id}`);
  }
  return kind;
}

function displayNames(deployment: string, cloneSet: string): DisplayNames {
  return {
    deployment: objectDisplayName(kindOf('deployment'), deployment),
    cloneSet: objectDisplayName(kindOf('cloneset'), cloneSet),
  };
}

function errorNames(deployment: string, cloneSet: string): Names {
  return {
    deployment: objectErrorName(kindOf('deployment'), deployment),
    cloneSet: objectErrorName(kindOf('cloneset'), cloneSet),
    deploymentArg: `deployment/${deployment}`,
  };
}
