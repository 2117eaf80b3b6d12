import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { ContainerConfigError, containerEnvironment, expandReferences, fieldPathValue } from './pod-env.ts';
import type { PodSources } from './pod-sources.ts';

const POD: V1Pod = {
  metadata: {
    name: 'web-0',
    namespace: 'ns',
    uid: 'uid-1',
    labels: { app: 'web', 'example.com/tier': 'a' },
    annotations: { note: 'hi' },
  },
  spec: { nodeName: 'pk-node', serviceAccountName: 'web-sa', containers: [] },
  status: { hostIP: '10.0.0.1', podIP: '10.0.0.2' },
};

describe('fieldPathValue', () => {
  it.each([
    ['metadata.name', undefined, 'web-0'],
    ['metadata.namespace', undefined, 'ns'],
    ['metadata.uid', undefined, 'uid-1'],
    ['spec.nodeName', undefined, 'pk-node'],
    ['spec.serviceAccountName', undefined, 'web-sa'],
    ["metadata.labels['app']", undefined, 'web'],
    ["metadata.labels['example.com/tier']", undefined, 'a'],
    ["metadata.labels['missing']", undefined, ''],
    ["metadata.annotations['note']", undefined, 'hi'],
    ['status.podIP', undefined, '10.0.0.2'],
    ['status.hostIP', undefined, '10.0.0.1'],
    ['status.podIP', '192.168.0.9', '192.168.0.9'],
    ['status.podIPs', '192.168.0.9', '192.168.0.9'],
  ])('%s (address %s)', (fieldPath, address, value) => {
    expect(fieldPathValue(POD, fieldPath, address)).toBe(value);
  });

  it('uses the kubelet address before the status carries one', () => {
    expect(fieldPathValue({ metadata: { name: 'p' } }, 'status.podIP', '192.168.0.9')).toBe('192.168.0.9');
  });

  it('names a path it does not support', () => {
    expect(() => fieldPathValue(POD, 'spec.schedulerName')).toThrow(
      new ContainerConfigError('fieldRef "spec.schedulerName" is not supported'),
    );
  });
});

describe('expandReferences', () => {
  const known = { A: 'one', B: 'two', 'DOT.NAME': 'dot' };
  it.each([
    ['$(A)', 'one'],
    ['x-$(A)-$(B)-y', 'x-one-two-y'],
    ['$(UNDEFINED) stays', '$(UNDEFINED) stays'],
    ['$$(A) is escaped', '$(A) is escaped'],
    ['$$ alone', '$ alone'],
    ['$A is not a reference', '$A is not a reference'],
    ['$(DOT.NAME)', 'dot'],
    ['$(A', '$(A'],
  ])('%s', (text, expanded) => {
    expect(expandReferences(text, known)).toBe(expanded);
  });
});

function sources(): PodSources {
  const secrets: Record<string, Record<string, Buffer>> = {
    'ns/creds': { password: Buffer.from('s3cret'), 'bad-name!': Buffer.from('x') },
  };
  const configMaps: Record<string, Record<string, Buffer>> = {
    'ns/settings': { level: Buffer.from('debug'), size: Buffer.from('3') },
  };
  return {
    secret: (namespace, name) => Promise.resolve(secrets[`${namespace}/${name}`]),
    configMap: (namespace, name) => Promise.resolve(configMaps[`${namespace}/${name}`]),
    serviceAccountToken: () => Promise.reject(new Error('not used')),
  };
}

const API = { host: '127.0.0.1', port: '6443' };

async function environment(
  container: Partial<V1Container>,
  base: Record<string, string> = {},
): Promise<Record<string, string>> {
  return containerEnvironment(
    { pod: POD, container: { name: 'c', ...container }, sources: sources(), address: '192.168.0.9' },
    base,
    API,
  );
}

describe('containerEnvironment', () => {
  it('starts from the image ENV, then the kubelet variables', async () => {
    const env = await environment({}, { NODE_ENV: 'production', HOSTNAME: 'image' });
    expect(env).toMatchObject({
      NODE_ENV: 'production',
      HOSTNAME: 'web-0',
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: '6443',
      KUBERNETES_SERVICE_PORT_HTTPS: '6443',
    });
    expect(env['PATH']).toContain('/usr/bin');
  });

  it('resolves value, $(VAR) of earlier variables, and every valueFrom', async () => {
    const env = await environment({
      env: [
        { name: 'GREETING', value: 'hello' },
        { name: 'MESSAGE', value: '$(GREETING) from $(POD_NAME)' },
        { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'LATER', value: '$(POD_NAME)' },
        { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
        { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'settings', key: 'level' } } },
        { name: 'OPTIONAL', valueFrom: { configMapKeyRef: { name: 'settings', key: 'absent', optional: true } } },
        { name: 'MEMORY_MI', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
      ],
      resources: { limits: { memory: '256Mi' } },
    });
    expect(env).toMatchObject({
      GREETING: 'hello',
      MESSAGE: 'hello from $(POD_NAME)',
      POD_NAME: 'web-0',
      LATER: 'web-0',
      POD_IP: '192.168.0.9',
      PASSWORD: 's3cret',
      LEVEL: 'debug',
      MEMORY_MI: '256',
    });
    expect(env).not.toHaveProperty('OPTIONAL');
  });

  it('adds envFrom with its prefix before env, skipping invalid names', async () => {
    const env = await environment({
      envFrom: [
        { configMapRef: { name: 'settings' }, prefix: 'CFG_' },
        { secretRef: { name: 'creds' } },
        { configMapRef: { name: 'absent', optional: true } },
      ],
      env: [{ name: 'CFG_level', value: 'overridden' }],
    });
    expect(env).toMatchObject({ CFG_level: 'overridden', CFG_size: '3', password: 's3cret' });
    expect(env).not.toHaveProperty('bad-name!');
  });

  it.each([
    ['a missing Secret', { secretKeyRef: { name: 'nope', key: 'k' } }, 'secret "nope" not found'],
    ['a missing key', { secretKeyRef: { name: 'creds', key: 'user' } }, "couldn't find key user in Secret ns/creds"],
    [
      'a missing ConfigMap key',
      { configMapKeyRef: { name: 'settings', key: 'colour' } },
      "couldn't find key colour in ConfigMap ns/settings",
    ],
    [
      'an unsupported fieldRef',
      { fieldRef: { fieldPath: 'spec.hostname' } },
      'fieldRef "spec.hostname" is not supported',
    ],
  ])('refuses %s with a CreateContainerConfigError message', async (_what, valueFrom, message) => {
    const building = environment({ env: [{ name: 'X', valueFrom }] });
    await expect(building).rejects.toBeInstanceOf(ContainerConfigError);
    await expect(building).rejects.toThrow(message);
  });
});
