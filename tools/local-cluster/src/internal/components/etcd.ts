export interface EtcdArgsOptions {
  readonly dataDir: string;
  readonly clientPort: number;
  readonly peerPort: number;
}

/**
 * etcd for one local cluster. `--unsafe-no-fsync` trades crash safety for speed: this data lives only
 * as long as the cluster, and fsync latency would otherwise dominate every write a test makes.
 */
export function etcdArgs(options: EtcdArgsOptions): string[] {
  const client = `http://127.0.0.1:${String(options.clientPort)}`;
  const peer = `http://127.0.0.1:${String(options.peerPort)}`;
  return [
    '--name=default',
    `--data-dir=${options.dataDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    '--unsafe-no-fsync=true',
    '--quota-backend-bytes=8589934592',
    '--log-level=warn',
  ];
}
