export interface SchedulerArgsOptions {
  readonly configFile: string;
  readonly kubeconfig: string;
  readonly port: number;
}

/** The KubeSchedulerConfiguration file: the admin kubeconfig, its client rate limit and no leader election. */
export function kubeSchedulerConfig(
  kubeconfig: string,
  client: { readonly qps: number; readonly burst: number } = { qps: 100, burst: 200 },
): string {
  return [
    'apiVersion: kubescheduler.config.k8s.io/v1',
    'kind: KubeSchedulerConfiguration',
    'clientConnection:',
    `  kubeconfig: ${JSON.stringify(kubeconfig)}`,
    `  qps: ${String(client.qps)}`,
    `  burst: ${String(client.burst)}`,
    'leaderElection:',
    '  leaderElect: false',
    '',
  ].join('\n');
}

export function kubeSchedulerArgs(options: SchedulerArgsOptions): string[] {
  return [
    `--config=${options.configFile}`,
    `--authentication-kubeconfig=${options.kubeconfig}`,
    `--authorization-kubeconfig=${options.kubeconfig}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${String(options.port)}`,
    '--v=1',
  ];
}
