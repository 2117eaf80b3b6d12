/**
 * Against the real kube-apiserver (v1.34.10) of the test control plane: the same reads in protobuf and
 * in JSON give the same objects, lists, errors and watch events, and the watch stream's framing is the
 * one WatchFramer expects.
 */
import type { IncomingMessage } from 'node:http';

import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import {
  decodeObject,
  decodeWatchEvent,
  PROTOBUF_MEDIA_TYPE,
  PROTOBUF_WATCH_MEDIA_TYPE,
  WatchFramer,
} from '../../src/index.ts';
import type { JsonObject, WatchEvent } from '../../src/index.ts';
import { rawGet, rawStream } from './raw-api.ts';

const kubeConfig = testKubeConfig();
const core = kubeConfig.makeApiClient(CoreV1Api);
const apps = kubeConfig.makeApiClient(AppsV1Api);

function pod(name: string, extra: Record<string, unknown> = {}) {
  return {
    metadata: { name, labels: { app: 'proto', empty: '' }, annotations: { big: 'x'.repeat(5000) } },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'registry.example.com/app:1',
          ports: [{ containerPort: 8080, name: 'http' }],
          resources: { requests: { cpu: '100m', memory: '0.5Gi' }, limits: { cpu: '1', 'example.com/r': '1e3' } },
          readinessProbe: { httpGet: { port: 'http', path: '/' } },
          livenessProbe: { tcpSocket: { port: 8080 } },
        },
      ],
      readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
      tolerations: [{ key: 'k', operator: 'Exists', tolerationSeconds: 0, effect: 'NoExecute' }],
      priority: 0,
      terminationGracePeriodSeconds: 0,
      ...extra,
    },
  };
}

/** A list read twice, at the same resourceVersion: JSON first, then protobuf at exactly its version. */
async function listBoth(path: string): Promise<{ json: JsonObject; protobuf: JsonObject; contentType: string }> {
  const jsonAnswer = await rawGet(kubeConfig, path, 'application/json');
  expect(jsonAnswer.status, jsonAnswer.body.toString()).toBe(200);
  const json = JSON.parse(jsonAnswer.body.toString('utf8')) as JsonObject & { metadata: { resourceVersion: string } };
  const separator = path.includes('?') ? '&' : '?';
  const exact = `${path}${separator}resourceVersion=${json.metadata.resourceVersion}&resourceVersionMatch=Exact`;
  const answer = await rawGet(kubeConfig, exact, PROTOBUF_MEDIA_TYPE);
  expect(answer.status).toBe(200);
  return { json, protobuf: decodeObject(answer.body, { resource: path }), contentType: answer.contentType };
}

/** Collects watch events until `done` says so. */
async function collect(
  response: IncomingMessage,
  decode: (chunk: Buffer) => WatchEvent[],
  done: (events: WatchEvent[]) => boolean,
) {
  const events: WatchEvent[] = [];
  for await (const chunk of response) {
    events.push(...decode(chunk as Buffer));
    if (done(events)) {
      break;
    }
  }
  return events;
}

function jsonLines(): (chunk: Buffer) => WatchEvent[] {
  let rest = '';
  return (chunk) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    return lines.filter((line) => line !== '').map((line) => JSON.parse(line) as WatchEvent);
  };
}

describe('protobuf from the real API server', () => {
  it('lists pods, a ControllerRevision, claims, namespaces, nodes and events as JSON does', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'kube-protobuf-list');
    for (const name of ['a', 'b', 'c']) {
      await core.createNamespacedPod({ namespace: ns.name, body: pod(name) });
    }
    await core.createNamespacedPersistentVolumeClaim({
      namespace: ns.name,
      body: {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    });
    await apps.createNamespacedControllerRevision({
      namespace: ns.name,
      body: {
        metadata: { name: 'rev' },
        revision: 2 ** 53 + 2,
        data: { spec: { template: { big: 2 ** 64, fraction: 0.1 } } },
      },
    });
    const paths = [
      `/api/v1/namespaces/${ns.name}/pods`,
      `/api/v1/namespaces/${ns.name}/persistentvolumeclaims`,
      `/apis/apps/v1/namespaces/${ns.name}/controllerrevisions`,
      `/api/v1/namespaces/${ns.name}/events`,
      '/api/v1/namespaces',
      '/api/v1/nodes?limit=50',
      `/api/v1/namespaces/${ns.name}/pods/a`,
      `/api/v1/namespaces/${ns.name}`,
    ];
    for (const path of paths) {
      const { json, protobuf, contentType } = await listBoth(path);
      expect(contentType, path).toBe(PROTOBUF_MEDIA_TYPE);
      expect(protobuf, path).toStrictEqual(json);
    }
  });

  it('gives an empty list as JSON does', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'kube-protobuf-empty');
    const { json, protobuf } = await listBoth(`/api/v1/namespaces/${ns.name}/persistentvolumeclaims`);
    expect(json['items']).toEqual([]);
    expect(protobuf).toStrictEqual(json);
  });

  it('decodes an error answer (a Status in protobuf) as JSON has it', async () => {
    const path = '/api/v1/namespaces/default/pods/does-not-exist';
    const jsonAnswer = await rawGet(kubeConfig, path, 'application/json');
    const answer = await rawGet(kubeConfig, path, PROTOBUF_MEDIA_TYPE);
    expect([jsonAnswer.status, answer.status]).toEqual([404, 404]);
    expect(answer.contentType).toBe(PROTOBUF_MEDIA_TYPE);
    expect(decodeObject(answer.body)).toStrictEqual(JSON.parse(jsonAnswer.body.toString('utf8')));
  });

  it('watches pods in frames of a 4-byte big-endian length and a WatchEvent, with the same events as JSON', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'kube-protobuf-watch');
    const list = await core.listNamespacedPod({ namespace: ns.name });
    const path = `/api/v1/namespaces/${ns.name}/pods?watch=true&resourceVersion=${list.metadata?.resourceVersion ?? ''}`;
    const abort = new AbortController();
    const protobufResponse = await rawStream(kubeConfig, {
      path,
      accept: PROTOBUF_WATCH_MEDIA_TYPE,
      signal: abort.signal,
    });
    const jsonResponse = await rawStream(kubeConfig, { path, accept: 'application/json', signal: abort.signal });
    expect(protobufResponse.headers['content-type']).toBe(PROTOBUF_WATCH_MEDIA_TYPE);
    const framer = new WatchFramer();
    const rawChunks: Buffer[] = [];
    const deleted = (events: WatchEvent[]) => events.some((event) => event.type === 'DELETED');
    const protobufEvents = collect(
      protobufResponse,
      (chunk) => {
        rawChunks.push(chunk);
        return framer.push(chunk).map((frame) => decodeWatchEvent(frame));
      },
      deleted,
    );
    const jsonEvents = collect(jsonResponse, jsonLines(), deleted);
    await core.createNamespacedPod({ namespace: ns.name, body: pod('w') });
    await core.patchNamespacedPod({
      namespace: ns.name,
      name: 'w',
      body: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }],
    });
    await core.deleteNamespacedPod({ namespace: ns.name, name: 'w', gracePeriodSeconds: 0 });
    const [fromProtobuf, fromJson] = await waitFor(async () => Promise.all([protobufEvents, jsonEvents]), {
      description: 'both watches to see the pod deleted',
    });
    abort.abort();
    expect(fromProtobuf.map((event) => event.type)).toContain('ADDED');
    expect(fromProtobuf).toStrictEqual(fromJson);

    // The framing, on the raw bytes: length prefix, then WatchEvent{type=1, object=2{raw=1: k8s\0...}}.
    const stream = Buffer.concat(rawChunks);
    const length = stream.readUInt32BE(0);
    expect(length).toBeLessThanOrEqual(stream.length - 4);
    expect(stream[4]).toBe(0x0a);
    const typeLength = stream[5] ?? 0;
    expect(stream.subarray(6, 6 + typeLength).toString()).toBe('ADDED');
    expect(stream[6 + typeLength]).toBe(0x12);
    const embedded = stream.subarray(4, 4 + length);
    expect(embedded.includes(Buffer.from('k8s\0'))).toBe(true);
    expect(embedded.subarray(0, 4).equals(Buffer.from('k8s\0'))).toBe(false);
  });
});
