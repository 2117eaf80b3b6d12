/**
 * The steps the scenarios share: creating the benchmark's workloads and patching the one workload.
 */
import { resourceOf } from '../measure/workloads.ts';
import type { Workload } from '../measure/workloads.ts';
import type { ChangeMade, ScenarioContext } from './scenario.ts';
import { IMAGE_BEFORE, workloadManifest } from './manifests.ts';

/** The workload's name (the steady scenario's are `bench-000`, ...). */
export const WORKLOAD = 'bench';

export interface Creation {
  readonly replicas: number;
  readonly updateType: 'ReCreate' | 'InPlaceIfPossible';
  readonly count?: number;
}

/**
 * The API server drops a native StatefulSet's `rollingUpdate.maxUnavailable` when its feature gate is
 * off; the baseline would then replace one pod at a time and its figures would mean nothing.
 */
function assertStoredMaxUnavailable(context: ScenarioContext, workload: Workload): void {
  if (context.kind !== 'StatefulSet') {
    return;
  }
  const strategy = workload.spec['updateStrategy'] as { rollingUpdate?: { maxUnavailable?: unknown } } | undefined;
  const stored = strategy?.rollingUpdate?.maxUnavailable;
  if (stored !== context.options.maxUnavailable) {
    throw new Error(
      `the API server stored the native StatefulSet with rollingUpdate.maxUnavailable ${JSON.stringify(stored)}, not ${context.options.maxUnavailable}: is the MaxUnavailableStatefulSet feature gate on?`,
    );
  }
}

/** Creates the workloads and waits until they are settled. */
export async function createWorkloads(
  context: ScenarioContext,
  { replicas, updateType, count = 1 }: Creation,
): Promise<void> {
  const kind = context.kind;
  if (kind === 'BroadcastJob' || kind === 'DaemonSet') {
    throw new Error(`${kind}s have no replicas: see scenarios/bcj-nodes.ts`);
  }
  const names =
    count === 1
      ? [WORKLOAD]
      : Array.from({ length: count }, (_unused, index) => `${WORKLOAD}-${String(index).padStart(3, '0')}`);
  const resource = resourceOf(context.kind);
  const created = await Promise.all(
    names.map((name) =>
      context.client.create(
        resource,
        workloadManifest({
          kind,
          name,
          namespace: context.namespace,
          replicas,
          image: IMAGE_BEFORE,
          updateType,
          maxUnavailable: context.options.maxUnavailable,
        }),
      ),
    ),
  );
  for (const workload of created) {
    assertStoredMaxUnavailable(context, workload);
  }
  await context.recorder.waitUntilSettled(count, context.options.timeoutMs);
}

/** A merge patch of the (only) workload. */
export async function patchWorkload(context: ScenarioContext, body: object): Promise<void> {
  await context.client.patch(
    resourceOf(context.kind),
    { namespace: context.namespace, name: WORKLOAD },
    { type: 'merge', body },
  );
}

/** Scales the workload out to the scenario's pods. */
export async function scaleOut(context: ScenarioContext): Promise<ChangeMade> {
  await patchWorkload(context, { spec: { replicas: context.options.pods } });
  return { pods: context.options.pods, touched: [`${context.namespace}/${WORKLOAD}`] };
}
