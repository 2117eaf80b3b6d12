/**
 * The kube-controller-manager controllers a local cluster runs: what garbage collection, namespace
 * deletion, Deployments (for `helm install --wait` and the native baseline in benchmarks), native
 * StatefulSets (the baseline of the Advanced StatefulSet benchmark), native DaemonSets (the baseline
 * of the BroadcastJob benchmark), service
 * accounts, and PVCs (binding to the PVs our fake provisioner creates, protection while in use) need,
 * and the pod garbage collector: as in a real cluster, a pod bound to a node that was deleted is
 * deleted (after its 40 s quarantine) instead of waiting for ever for a kubelet no one plays, so a
 * workload whose pod was stranded that way replaces it. Node lifecycle and IPAM stay off: kwok plays
 * the kubelet and nodes never go stale.
 */
export const DEFAULT_CONTROLLERS: readonly string[] = [
  'garbage-collector-controller',
  'namespace-controller',
  'deployment-controller',
  'replicaset-controller',
  'statefulset-controller',
  'daemonset-controller',
  'serviceaccount-controller',
  'root-ca-certificate-publisher-controller',
  'clusterrole-aggregation-controller',
  'persistentvolumeclaim-protection-controller',
  'persistentvolume-protection-controller',
  'persistentvolume-binder-controller',
  'pod-garbage-collector-controller',
];

export interface ControllerManagerArgsOptions {
  readonly kubeconfig: string;
  readonly port: number;
  readonly caFile: string;
  readonly controllers: readonly string[];
}

export function kubeControllerManagerArgs(options: ControllerManagerArgsOptions): string[] {
  return [
    `--kubeconfig=${options.kubeconfig}`,
    `--authentication-kubeconfig=${options.kubeconfig}`,
    `--authorization-kubeconfig=${options.kubeconfig}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${String(options.port)}`,
    `--controllers=${options.controllers.join(',')}`,
    `--root-ca-file=${options.caFile}`,
    '--cluster-name=kruise-ts',
    '--leader-elect=false',
    '--use-service-account-credentials=false',
    '--v=1',
  ];
}
