/**
 * The baselines: kube-controller-manager's Deployment and ReplicaSet controllers rolling out a native
 * Deployment, its StatefulSet controller rolling out a native StatefulSet, or its DaemonSet controller
 * placing a pod on every node (the BroadcastJob's baseline). They run in every
 * cluster of the run (with the same client rate limit as the other contenders); their requests are
 * told apart by user agent, because kube-controller-manager shares the local control plane's admin
 * identity with the scheduler and kwok.
 */
import { byUserAgentSuffix } from '../collect/index.ts';
import type { WorkloadFamily } from '../measure/workloads.ts';
import type { Contender } from './contender.ts';

const CONTROLLERS: Readonly<
  Record<WorkloadFamily, { readonly name: string; readonly controllers: readonly string[] }>
> = {
  cloneset: { name: 'native-deployment', controllers: ['deployment-controller', 'replicaset-controller'] },
  statefulset: { name: 'native-statefulset', controllers: ['statefulset-controller'] },
  // Its client's name (and so the user agent's last part); `--controllers` calls it daemonset-controller.
  broadcastjob: { name: 'native-daemonset', controllers: ['daemon-set-controller'] },
};

/** The native controller of a scenario's family: Deployments for the CloneSet scenarios, StatefulSets for the Advanced StatefulSet ones, DaemonSets for the BroadcastJob one. */
export function nativeContender(family: WorkloadFamily, name = CONTROLLERS[family].name): Contender {
  const { controllers } = CONTROLLERS[family];
  return {
    name,
    kind: 'native',
    processes: 0,
    start(context) {
      return Promise.resolve({
        info: {
          name,
          kind: 'native',
          command: `kube-controller-manager (${controllers.join(', ')}) of the local control plane`,
        },
        // The whole kube-controller-manager: its other controllers (garbage collector, namespaces, ...) idle during a rollout.
        pid: context.controllerManagerPid,
        metricsUrls: [],
        select: byUserAgentSuffix(controllers.map((controller) => `/${controller}`)),
        collectsGarbageOnSignal: false,
        stop: () => Promise.resolve(),
      });
    },
  };
}
