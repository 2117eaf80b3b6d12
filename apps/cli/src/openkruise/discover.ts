/** Reads what is left of OpenKruise on the cluster (gets and lists only) and recognises it (findings.ts). */
import { isNotFound, labelSelectorToString } from '@kruise-ts/controller-runtime';
import type { KubeObject, ObjectKeyRef, Reader, ResourceType } from '@kruise-ts/controller-runtime';

import { podResource } from '../resources/resource-types.ts';
import {
  crdFinding,
  daemonFinding,
  managerFinding,
  openKruiseService,
  webhookConfigurationFinding,
} from './findings.ts';
import type { Findings, ManagerFinding } from './findings.ts';
import { OPENKRUISE_DAEMON_DAEMONSET, OPENKRUISE_MANAGER_DEPLOYMENT } from './openkruise-names.ts';
import {
  customResourceDefinitionResource,
  daemonSetResource,
  managerDeploymentResource,
  mutatingWebhookConfigurationResource,
  validatingWebhookConfigurationResource,
} from './openkruise-objects.ts';

export async function discoverOpenKruise(client: Reader, namespace: string): Promise<Findings> {
  const service = openKruiseService(namespace);
  const [mutating, validating, crds, daemonSet] = await Promise.all([
    client.listAll(mutatingWebhookConfigurationResource),
    client.listAll(validatingWebhookConfigurationResource),
    client.listAll(customResourceDefinitionResource),
    getIfExists(client, daemonSetResource, { namespace, name: OPENKRUISE_DAEMON_DAEMONSET }),
  ]);
  return {
    namespace,
    configurations: [
      ...mutating.items.map((configuration) => webhookConfigurationFinding('mutating', configuration, service)),
      ...validating.items.map((configuration) => webhookConfigurationFinding('validating', configuration, service)),
    ].filter((finding) => finding !== undefined),
    manager: await readManager(client, namespace),
    daemon: daemonSet === undefined ? undefined : daemonFinding(daemonSet),
    crds: crds.items
      .map((crd) => crdFinding(crd, service))
      .filter((finding) => finding !== undefined)
      .toSorted((a, b) => a.name.localeCompare(b.name)),
  };
}

export async function readManager(client: Reader, namespace: string): Promise<ManagerFinding | undefined> {
  const deployment = await getIfExists(client, managerDeploymentResource, {
    namespace,
    name: OPENKRUISE_MANAGER_DEPLOYMENT,
  });
  if (deployment === undefined) {
    return undefined;
  }
  return managerFinding(
    deployment,
    await countPods(client, namespace, labelSelectorToString(deployment.spec.selector)),
  );
}

/** The pods a selector picks, terminating ones included. */
export async function countPods(client: Reader, namespace: string, selector: string): Promise<number> {
  // apps/v1 requires a selector; an empty one would pick every pod of the namespace.
  if (selector === '') {
    return 0;
  }
  return (await client.listAll(podResource, { namespace, labelSelector: selector })).items.length;
}

async function getIfExists<T extends KubeObject>(
  client: Reader,
  resource: ResourceType<T>,
  key: ObjectKeyRef,
): Promise<T | undefined> {
  try {
    return await client.get(resource, key);
  } catch (error) {
    if (isNotFound(error)) {
      return undefined;
    }
    throw error;
  }
}
