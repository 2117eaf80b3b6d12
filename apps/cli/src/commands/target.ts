import type { ObjectKeyRef, ResourceType } from '@kruise-ts/controller-runtime';

import type { Cluster } from '../kubeconfig/connect.ts';
import { objectDisplayName } from '../resources/kinds.ts';
import type { ObjectRef } from '../resources/object-ref.ts';
import { workloadResource } from '../resources/resource-types.ts';
import type { WorkloadObject } from '../resources/workload-object.ts';

/** The workload a command changes, addressed in the command's namespace. */
export interface Target {
  readonly ref: ObjectRef;
  readonly cluster: Cluster;
  readonly resource: ResourceType<WorkloadObject>;
  readonly key: ObjectKeyRef;
  /** `cloneset.apps.kruise.io/web`, as kubectl prints it. */
  readonly displayName: string;
}

export function targetOf(ref: ObjectRef, cluster: Cluster): Target {
  return {
    ref,
    cluster,
    resource: workloadResource(ref.kind),
    key: { namespace: cluster.namespace, name: ref.name },
    displayName: objectDisplayName(ref.kind, ref.name),
  };
}

export function readTarget(target: Target): Promise<WorkloadObject> {
  return target.cluster.client.get(target.resource, target.key);
}
