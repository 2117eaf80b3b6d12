import { isNotFound } from '@kruise-ts/controller-runtime';

import { PreconditionError } from '../cli/cli-errors.ts';
import { podResource } from '../resources/resource-types.ts';
import type { WorkloadObject } from '../resources/workload-object.ts';
import type { Target } from './target.ts';

/**
 * Checks that every named pod exists and is controlled by the workload (its controller owner
 * reference has the workload's uid); all problems are reported together, before anything is written.
 */
export async function checkOwnedPods(target: Target, object: WorkloadObject, pods: readonly string[]): Promise<void> {
  const problems = await Promise.all(pods.map((name) => podProblem(target, object, name)));
  const found = problems.filter((problem): problem is string => problem !== undefined);
  if (found.length > 0) {
    throw new PreconditionError(found.join('\n'));
  }
}

async function podProblem(target: Target, object: WorkloadObject, name: string): Promise<string | undefined> {
  try {
    const pod = await target.cluster.client.get(podResource, { namespace: target.key.namespace, name });
    const controller = pod.metadata.ownerReferences?.find((owner) => owner.controller === true);
    return controller?.uid === object.metadata.uid
      ? undefined
      : `pod ${JSON.stringify(name)} is not controlled by ${target.displayName}`;
  } catch (error) {
    if (isNotFound(error)) {
      return `pod ${JSON.stringify(name)} not found in namespace ${JSON.stringify(target.key.namespace)}`;
    }
    throw error;
  }
}
