import { describe, expect, it } from 'vitest';

import type { ClusterPki } from '../pki.ts';
import { etcdArgs } from './etcd.ts';
import { kubeApiServerArgs } from './kube-apiserver.ts';
import { DEFAULT_CONTROLLERS, kubeControllerManagerArgs } from './kube-controller-manager.ts';
import { kubeSchedulerArgs, kubeSchedulerConfig } from './kube-scheduler.ts';
import { kwokArgs } from './kwok.ts';

const pki: ClusterPki = {
  ca: { certFile: '/pki/ca.crt', keyFile: '/pki/ca.key' },
  caPem: 'PEM',
  apiServer: { certFile: '/pki/apiserver.crt', keyFile: '/pki/apiserver.key', caPem: 'PEM' },
  serviceAccountKeyFile: '/pki/sa.key',
  serviceAccountPublicKeyFile: '/pki/sa.pub',
  tokenFile: '/pki/tokens.csv',
  adminToken: 'token',
};

describe('component command lines', () => {
  it('etcd listens on loopback only', () => {
    const args = etcdArgs({ dataDir: '/d', clientPort: 1, peerPort: 2 });
    expect(args).toContain('--listen-client-urls=http://127.0.0.1:1');
    expect(args).toContain('--listen-peer-urls=http://127.0.0.1:2');
    expect(args).toContain('--unsafe-no-fsync=true');
  });

  it('kube-apiserver authorizes with RBAC and keeps admission webhooks on', () => {
    const args = kubeApiServerArgs({
      etcdUrl: 'http://127.0.0.1:1',
      port: 3,
      pki,
      serviceClusterIpRange: '10.96.0.0/16',
    });
    expect(args).toContain('--authorization-mode=Node,RBAC');
    expect(args).toContain('--bind-address=127.0.0.1');
    expect(args).toContain('--service-account-key-file=/pki/sa.pub');
    expect(args).toContain('--service-account-signing-key-file=/pki/sa.key');
    expect(args.filter((a) => a.startsWith('--disable-admission-plugins'))).toEqual([
      '--disable-admission-plugins=TaintNodesByCondition',
    ]);
    expect(args.some((a) => a.startsWith('--enable-admission-plugins'))).toBe(false);
  });

  it('kube-apiserver calls Service-backed webhooks at their endpoints, as there is no kube-proxy for cluster IPs', () => {
    const args = kubeApiServerArgs({ etcdUrl: 'e', port: 3, pki, serviceClusterIpRange: 'r' });
    expect(args).toContain('--enable-aggregator-routing=true');
  });

  it('kube-apiserver writes an audit log only when asked', () => {
    const plain = kubeApiServerArgs({ etcdUrl: 'e', port: 3, pki, serviceClusterIpRange: 'r' });
    const audited = kubeApiServerArgs({
      etcdUrl: 'e',
      port: 3,
      pki,
      serviceClusterIpRange: 'r',
      auditPolicyFile: '/p',
      auditLogFile: '/l',
    });
    expect(plain.some((a) => a.startsWith('--audit'))).toBe(false);
    expect(audited).toContain('--audit-log-path=/l');
    expect(audited).toContain('--audit-log-maxsize=1000000');
  });

  it('kube-controller-manager runs GC, namespace and the native workload controllers by default', () => {
    expect(DEFAULT_CONTROLLERS).toEqual(
      expect.arrayContaining([
        'garbage-collector-controller',
        'namespace-controller',
        'deployment-controller',
        'replicaset-controller',
        'statefulset-controller',
        'daemonset-controller',
        'pod-garbage-collector-controller',
      ]),
    );
    const args = kubeControllerManagerArgs({ kubeconfig: '/k', port: 4, caFile: '/ca', controllers: ['a', 'b'] });
    expect(args).toContain('--controllers=a,b');
    expect(args).toContain('--leader-elect=false');
  });

  it('kube-scheduler reads its kubeconfig from its configuration file', () => {
    expect(kubeSchedulerConfig('/run/kube config')).toContain('kubeconfig: "/run/kube config"');
    expect(kubeSchedulerConfig('/k')).toMatch(/qps: 100\n {2}burst: 200\n/);
    expect(kubeSchedulerConfig('/k', { qps: 5000, burst: 10000 })).toMatch(/qps: 5000\n {2}burst: 10000\n/);
    expect(kubeSchedulerArgs({ configFile: '/c', kubeconfig: '/k', port: 5 })).toContain('--secure-port=5');
  });

  it('kwok manages only nodes annotated as fake', () => {
    expect(kwokArgs({ kubeconfig: '/k', stagesFile: '/s', port: 6 })).toEqual(
      expect.arrayContaining([
        '--config=/s',
        '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
        '--server-address=127.0.0.1:6',
      ]),
    );
  });
});
