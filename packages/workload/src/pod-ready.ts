/**
 * The Ready False a workload controller writes ahead of the kubelet, to take a pod out of Service
 * endpoints at once when it turns one of the pod's readiness gates False (in-place updates,
 * lifecycle hooks with markPodNotReady). Ready True is always left to the kubelet: a controller that
 * writes it leaves the kubelet's cached False, which the kubelet's periodic status reconcile
 * republishes (a Ready flap, sgl-project/rbg#460).
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { POD_READY_CONDITION } from './pod-state.ts';

type PodCondition = NonNullable<NonNullable<Pod['status']>['conditions']>[number];

/**
 * Prefix of the message of that Ready False. The message must differ from the kubelet's own: the
 * kubelet re-syncs a pod whose Ready message is not the one it would write, which brings its cached
 * status in line; otherwise its periodic status reconcile can republish the stale True it cached.
 */
export const CONTROLLER_READY_FALSE_PREFIX = 'set by the workload controller before the kubelet: ';

/** The kubelet's words for a readiness gate that is not True; undefined when it is. */
function gateProblem(conditions: readonly DeepReadonly<PodCondition>[], gate: string): string | undefined {
  const condition = conditions.find((c) => c.type === gate);
  if (condition === undefined) {
    return `corresponding condition of pod readiness gate "${gate}" does not exist.`;
  }
  return condition.status === 'True'
    ? undefined
    : `the status of pod readiness gate "${gate}" is not "True", but ${condition.status}`;
}

/**
 * Ready False for a pod whose conditions (as they will be after the controller's change) leave a
 * readiness gate not True, when Ready and ContainersReady are True; undefined otherwise (nothing to
 * take out of service, or the kubelet already has).
 */
export function controllerReadyFalse(input: {
  readonly readinessGates: readonly DeepReadonly<{ conditionType: string }>[];
  readonly conditions: readonly DeepReadonly<PodCondition>[];
  readonly lastTransitionTime: string;
}): PodCondition | undefined {
  const { conditions } = input;
  const isTrue = (type: string): boolean => conditions.some((c) => c.type === type && c.status === 'True');
  if (!isTrue(POD_READY_CONDITION) || !isTrue('ContainersReady')) {
    return undefined;
  }
  const problems = input.readinessGates.flatMap((gate) => gateProblem(conditions, gate.conditionType) ?? []);
  return problems.length === 0
    ? undefined
    : {
        type: POD_READY_CONDITION,
        status: 'False',
        reason: 'ReadinessGatesNotReady',
        message: `${CONTROLLER_READY_FALSE_PREFIX}${problems.join(', ')}`,
        lastTransitionTime: input.lastTransitionTime,
      };
}
