/**
 * The baseline: kube-controller-manager's Deployment and ReplicaSet controllers rolling out a native
 * Deployment. It runs in every cluster of the run (with the same client rate limit as the other
 * contenders); its requests are told apart by user agent, because kube-controller-manager shares
 * the local control plane's admin identity with the scheduler and kwok.
 */
import { byUserAgentSuffix } from '../collect/index.ts';
import type { Contender } from './contender.ts';

export function nativeDeploymentContender(name = 'native-deployment'): Contender {
  return {
    name,
    kind: 'native',
    workloadKind: 'Deployment',
    processes: 0,
    start(context) {
      return Promise.resolve({
        info: { name, kind: 'native', command: 'kube-controller-manager (deployment-controller, replicaset-controller) of the local control plane' },
        // The whole kube-controller-manager: its other controllers (garbage collector, namespaces, ...) idle during a rollout.
        pid: context.controllerManagerPid,
        metricsUrls: [],
        select: byUserAgentSuffix(['/deployment-controller', '/replicaset-controller']),
        collectsGarbageOnSignal: false,
        stop: () => Promise.resolve(),
      });
    },
  };
}
