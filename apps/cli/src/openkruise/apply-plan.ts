/**
 * Makes the planned changes, in the plan's order, one line each as kubectl prints them. Every write
 * carries the uid or resourceVersion it was planned on, so an object changed since it was read is not
 * touched (the API server's Conflict ends the command; a re-run plans again from what is there).
 */
import { isNotFound } from '@kruise-ts/controller-runtime';
import type { Reader, Writer } from '@kruise-ts/controller-runtime';

import { formatDuration } from '../migration/report.ts';
import { countPods } from './discover.ts';
import type { CrdFinding, ManagerFinding, WebhookConfigurationFinding } from './findings.ts';
import { REPLICAS_BEFORE_MIGRATION_ANNOTATION } from './openkruise-names.ts';
import {
  customResourceDefinitionResource,
  managerDeploymentResource,
  mutatingWebhookConfigurationResource,
  validatingWebhookConfigurationResource,
} from './openkruise-objects.ts';
import type { Change } from './plan.ts';
import { configurationName, crdName, deploymentName } from './report.ts';

export const POLL_INTERVAL_MS = 500;

/** Where the changes are made, and how time is told; tests pass a fake clock. */
export interface ChangeRuntime {
  readonly client: Reader & Writer;
  readonly print: (line: string) => void;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** OpenKruise's namespace. */
  readonly namespace: string;
  /** How long to wait for the manager's pods to be gone. */
  readonly timeoutMs: number;
}

export async function applyChanges(runtime: ChangeRuntime, changes: readonly Change[]): Promise<void> {
  for (const change of changes) {
    switch (change.type) {
      case 'delete-configuration':
        await deleteConfiguration(runtime, change.configuration);
        break;
      case 'stop-manager':
        await stopManager(runtime, change.manager);
        break;
      case 'conversion-none':
        await setConversionNone(runtime, change.crd);
        break;
    }
  }
}

async function deleteConfiguration(runtime: ChangeRuntime, configuration: WebhookConfigurationFinding): Promise<void> {
  const resource =
    configuration.kind === 'mutating' ? mutatingWebhookConfigurationResource : validatingWebhookConfigurationResource;
  try {
    await runtime.client.delete(resource, { name: configuration.name }, { preconditions: { uid: configuration.uid } });
    runtime.print(`${configurationName(configuration)} deleted`);
  } catch (error) {
    // Deleted by someone else since it was read: what this step wanted.
    if (!isNotFound(error)) {
      throw error;
    }
    runtime.print(`${configurationName(configuration)} already gone`);
  }
}

async function stopManager(runtime: ChangeRuntime, manager: ManagerFinding): Promise<void> {
  const name = deploymentName(manager.name);
  if (manager.replicas > 0) {
    const metadata = {
      resourceVersion: manager.resourceVersion,
      annotations: { [REPLICAS_BEFORE_MIGRATION_ANNOTATION]: String(manager.replicas) },
    };
    await runtime.client.patch(
      managerDeploymentResource,
      { namespace: runtime.namespace, name: manager.name },
      { type: 'merge', body: { metadata, spec: { replicas: 0 } } },
    );
    runtime.print(
      `${name} scaled to 0 (from ${String(manager.replicas)}, recorded in its annotation ${REPLICAS_BEFORE_MIGRATION_ANNOTATION})`,
    );
  }
  const deadline = runtime.now() + runtime.timeoutMs;
  for (;;) {
    const pods = await countPods(runtime.client, runtime.namespace, manager.selector);
    if (pods === 0) {
      runtime.print(`${name}: its pods are gone`);
      return;
    }
    if (runtime.now() >= deadline) {
      throw new Error(
        `timed out after ${formatDuration(runtime.timeoutMs)} waiting for the pods of ${name} to be gone (${String(pods)} left)\n` +
          `the changes before this one are made; run the same command again to go on`,
      );
    }
    await runtime.sleep(POLL_INTERVAL_MS);
  }
}

async function setConversionNone(runtime: ChangeRuntime, crd: CrdFinding): Promise<void> {
  const body = {
    metadata: { resourceVersion: crd.resourceVersion },
    spec: { conversion: { strategy: 'None', webhook: null } },
  };
  await runtime.client.patch(customResourceDefinitionResource, { name: crd.name }, { type: 'merge', body });
  runtime.print(`${crdName(crd.name)} conversion set to None`);
}
