import { describe, expect, it } from 'vitest';

import { LocalClusterError } from './errors.ts';
import { renderKubeconfig } from './kubeconfig.ts';

describe('LocalClusterError', () => {
  it('names the component, the log file and quotes the log tail', () => {
    const error = new LocalClusterError('exited with code 1', {
      component: 'etcd',
      logFile: '/logs/etcd.log',
      logTail: 'line one\nline two\n',
    });
    expect(error.message).toBe(
      [
        'etcd: exited with code 1',
        'log file: /logs/etcd.log',
        'last lines of the log:',
        '  | line one',
        '  | line two',
      ].join('\n'),
    );
  });

  it('omits what it does not know', () => {
    expect(new LocalClusterError('port in use', { component: 'kube-apiserver' }).message).toBe(
      'kube-apiserver: port in use',
    );
  });
});

describe('renderKubeconfig', () => {
  it('inlines the CA so the file works from any directory', () => {
    const text = renderKubeconfig({ server: 'https://127.0.0.1:1', caPem: 'PEM', token: 't' });
    expect(text).toContain(`certificate-authority-data: ${Buffer.from('PEM').toString('base64')}`);
    expect(text).toContain('server: https://127.0.0.1:1');
    expect(text).toContain('token: t');
  });
});
