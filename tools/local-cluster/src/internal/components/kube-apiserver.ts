import type { ClusterPki } from '../pki.ts';

export interface ApiServerArgsOptions {
  readonly etcdUrl: string;
  readonly port: number;
  readonly pki: ClusterPki;
  readonly serviceClusterIpRange: string;
  readonly auditPolicyFile?: string;
  readonly auditLogFile?: string;
}

/**
 * kube-apiserver as a production cluster runs it where it matters to controllers: RBAC, the default
 * admission chain with webhooks and ValidatingAdmissionPolicy, service-account tokens, PodSecurity.
 *
 * - TaintNodesByCondition is off: it taints every new Node `not-ready:NoSchedule` and only the
 *   node-lifecycle controller lifts it, which would make fake nodes unschedulable. OpenKruise's
 *   sample YAML has no tolerations, so the fake nodes carry no taints at all.
 * - `--endpoint-reconciler-type=none`: the default reconciler would publish 127.0.0.1 as the
 *   `kubernetes` Service endpoint, which endpoint validation rejects, and log the failure forever.
 * - `--enable-aggregator-routing=true`: webhooks (and aggregated APIs) that name a Service are called
 *   at one of its EndpointSlices' ready addresses instead of its cluster IP. There is no kube-proxy,
 *   so a cluster IP leads nowhere; an endpoint can be this machine's own address, where a webhook
 *   server run by a test listens (the chart's SidecarSet install test). Webhooks given by `url` are
 *   unaffected.
 */
export function kubeApiServerArgs(options: ApiServerArgsOptions): string[] {
  const { pki } = options;
  const args = [
    `--etcd-servers=${options.etcdUrl}`,
    '--etcd-prefix=/registry',
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${String(options.port)}`,
    `--tls-cert-file=${pki.apiServer.certFile}`,
    `--tls-private-key-file=${pki.apiServer.keyFile}`,
    `--client-ca-file=${pki.ca.certFile}`,
    `--token-auth-file=${pki.tokenFile}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${pki.serviceAccountPublicKeyFile}`,
    `--service-account-signing-key-file=${pki.serviceAccountKeyFile}`,
    `--service-cluster-ip-range=${options.serviceClusterIpRange}`,
    '--authorization-mode=Node,RBAC',
    '--disable-admission-plugins=TaintNodesByCondition',
    '--allow-privileged=true',
    '--endpoint-reconciler-type=none',
    '--enable-aggregator-routing=true',
    // /debug/pprof (authenticated; admin only): the benchmark profiles the API server with it.
    '--profiling=true',
    '--v=1',
  ];
  if (options.auditPolicyFile !== undefined && options.auditLogFile !== undefined) {
    // No rotation (lumberjack's default is 100 MB): a benchmark reads the log by byte offsets, and a
    // 10,000-pod rollout writes more than that.
    args.push(
      `--audit-policy-file=${options.auditPolicyFile}`,
      `--audit-log-path=${options.auditLogFile}`,
      '--audit-log-format=json',
      '--audit-log-maxsize=1000000',
    );
  }
  return args;
}
