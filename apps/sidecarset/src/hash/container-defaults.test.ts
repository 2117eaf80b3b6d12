import { describe, expect, it } from 'vitest';

import { defaultPullPolicy, defaultSidecarContainer } from './container-defaults.ts';

describe('defaultPullPolicy (Kubernetes: Always for latest or no tag)', () => {
  it.each([
    ['busybox', 'Always'],
    ['busybox:latest', 'Always'],
    ['busybox:1.36', 'IfNotPresent'],
    [`busybox@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
    [`busybox:1.36@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
    ['localhost:5000/agent', 'Always'],
    ['localhost:5000/agent:v2', 'IfNotPresent'],
  ])('%s: %s', (image, policy) => {
    expect(defaultPullPolicy(image)).toBe(policy);
  });
});

describe('defaultSidecarContainer', () => {
  it('fills what the webhook fills and keeps what is set', () => {
    const container = defaultSidecarContainer({
      name: 's',
      image: 'a:1',
      imagePullPolicy: 'Never',
      ports: [{ containerPort: 80 }],
      env: [{ name: 'P', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      readinessProbe: { httpGet: { port: 80 }, periodSeconds: 5 },
    });
    expect(container).toMatchObject({
      imagePullPolicy: 'Never',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      env: [{ name: 'P', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }],
      readinessProbe: {
        httpGet: { port: 80, path: '/', scheme: 'HTTP' },
        periodSeconds: 5,
        timeoutSeconds: 1,
        successThreshold: 1,
        failureThreshold: 3,
      },
    });
  });
});
