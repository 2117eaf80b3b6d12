import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import type { Node, Pod } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';

import { decodeObject } from '@kruise-ts/kube-protobuf';

import {
  CACHE_DROPPED_POD_FIELDS,
  NODE_CACHE_FIELD_FILTER,
  POD_CACHE_FIELD_FILTER,
  trimNodeForCache,
  trimPodForCache,
} from './cache-transforms.ts';

const pod = JSON.parse(readFileSync(new URL('../test/fixtures/pod-on-kwok.json', import.meta.url), 'utf8')) as Pod;

describe('trimPodForCache', () => {
  const trimmed = trimPodForCache(structuredClone(pod));

  it('keeps metadata whole and every spec and status field a workload controller reads', () => {
    expect(trimmed.metadata).toEqual(pod.metadata);
    expect(trimmed.spec?.nodeName).toBe(pod.spec?.nodeName);
    expect(trimmed.spec?.readinessGates).toEqual(pod.spec?.readinessGates);
    expect(trimmed.spec?.terminationGracePeriodSeconds).toBe(pod.spec?.terminationGracePeriodSeconds);
    expect(trimmed.spec?.containers).toEqual([
      {
        name: 'main',
        image: 'nginx:1.27-alpine',
        resources: { requests: { cpu: '10m', memory: '16Mi' } },
        env: [{ name: 'ZONE', valueFrom: { fieldRef: { fieldPath: "metadata.labels['zone']" } } }],
        resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
        volumeMounts: [{ name: 'data-vol', mountPath: '/data' }],
      },
    ]);
    // The user's volumes stay; only the ServiceAccount token volume goes.
    expect(trimmed.spec?.volumes).toEqual([
      { name: 'data-vol', persistentVolumeClaim: { claimName: 'data-vol-web-abcde' } },
    ]);
    expect(trimmed.status?.phase).toBe('Running');
    expect(trimmed.status?.observedGeneration).toBe(pod.status?.observedGeneration);
    expect(
      trimmed.status?.conditions?.map((condition) => [condition.type, condition.status, condition.lastTransitionTime]),
    ).toEqual(
      pod.status?.conditions?.map((condition) => [condition.type, condition.status, condition.lastTransitionTime]),
    );
    const [status] = trimmed.status?.containerStatuses ?? [];
    const [original] = pod.status?.containerStatuses ?? [];
    expect(status).toEqual({
      name: original?.name,
      image: original?.image,
      imageID: original?.imageID,
      containerID: original?.containerID,
      ready: true,
      started: true,
      restartCount: 0,
      state: original?.state,
      resources: original?.resources,
    });
  });

  it('drops the fields it lists', () => {
    const text = JSON.stringify(trimmed);
    for (const field of [
      'tolerations',
      'dnsPolicy',
      'schedulerName',
      'securityContext',
      'enableServiceLinks',
      'preemptionPolicy',
      'serviceAccount',
      'restartPolicy"',
      'kube-api-access-',
      'terminationMessage',
      'imagePullPolicy',
      'hostIP',
      'podIP',
      'qosClass',
      'startTime',
      'lastProbeTime',
      'lastState',
      'allocatedResources',
    ]) {
      expect(text, field).not.toContain(field === 'restartPolicy"' ? '"restartPolicy":"Always"' : field);
    }
    expect(trimmed.spec).not.toHaveProperty('priority');
    // The fixture is a pod as the API server returns it, and the trimmed one is much smaller.
    expect(JSON.stringify(trimmed).length).toBeLessThan(0.7 * JSON.stringify(pod).length);
  });

  it('keeps every condition field but lastProbeTime, and the readiness gates and owners as they were', () => {
    const withReasons = structuredClone(pod);
    const conditions = (withReasons.status?.conditions ?? []).map((condition) => ({
      ...condition,
      reason: 'Because',
      message: 'it is so',
    }));
    const result = trimPodForCache({ ...withReasons, status: { ...withReasons.status, conditions } });
    expect(result.status?.conditions).toEqual(conditions.map(({ lastProbeTime, ...kept }) => kept));
    expect(result.spec?.readinessGates).toEqual(pod.spec?.readinessGates);
    expect(result.metadata?.ownerReferences).toEqual(pod.metadata?.ownerReferences);
    expect(result.status?.containerStatuses?.[0]?.state).toEqual(pod.status?.containerStatuses?.[0]?.state);
  });

  it('does not change its input and handles a pod without spec or status', () => {
    const input = structuredClone(pod);
    trimPodForCache(input);
    expect(input).toEqual(pod);
    expect(trimPodForCache({ metadata: { name: 'bare' } })).toEqual({ metadata: { name: 'bare' } });
  });
});

/** kube-protobuf's checked-in golden vectors (Go's protobuf and JSON of the same object); the whole corpus: test/integration. */
const golden = JSON.parse(
  readFileSync(new URL('../../kube-protobuf/test/fixtures/golden-sample.json', import.meta.url), 'utf8'),
) as readonly { readonly name: string; readonly protobuf: string; readonly json: string }[];

describe('the cached object from JSON and from protobuf decoded with the field filter', () => {
  it.each([
    ['pod: full', POD_CACHE_FIELD_FILTER, (object: never) => trimPodForCache(object)],
    ['pod: times', POD_CACHE_FIELD_FILTER, (object: never) => trimPodForCache(object)],
    ['node: full', NODE_CACHE_FIELD_FILTER, (object: never) => trimNodeForCache(object)],
  ] as const)('%s', (name, filter, trim) => {
    const vector = golden.find((candidate) => candidate.name === name);
    const decoded = decodeObject(Buffer.from(vector?.protobuf ?? '', 'base64'), { filter });
    expect(trim(decoded as never)).toStrictEqual(trim(JSON.parse(vector?.json ?? '{}') as never));
    expect(JSON.stringify(decoded).length).toBeLessThan(vector?.json.length ?? 0);
  });
});

describe('trimNodeForCache', () => {
  it('keeps the name, uid, resourceVersion and labels only, when the node has no taints, cordon or allocatable', () => {
    const node: Node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: 'n1',
        uid: 'u',
        resourceVersion: '7',
        labels: { 'topology.kubernetes.io/zone': 'a' },
        annotations: { big: 'x'.repeat(1000) },
      },
      spec: { podCIDR: '10.0.0.0/24' },
      status: { images: [{ names: ['nginx'], sizeBytes: 1 }] },
    };
    expect(trimNodeForCache(node)).toEqual({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1', uid: 'u', resourceVersion: '7', labels: { 'topology.kubernetes.io/zone': 'a' } },
    });
  });

  it('keeps taints, unschedulable and allocatable (whether a pod fits the node)', () => {
    const node: Node = {
      metadata: { name: 'n1' },
      spec: {
        podCIDR: '10.0.0.0/24',
        unschedulable: true,
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      },
      status: {
        allocatable: { cpu: '4', pods: '110' },
        capacity: { cpu: '4' },
        images: [{ names: ['nginx'], sizeBytes: 1 }],
      },
    };
    expect(trimNodeForCache(node)).toEqual({
      metadata: { name: 'n1' },
      spec: { unschedulable: true, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
      status: { allocatable: { cpu: '4', pods: '110' } },
    });
  });
});

/**
 * A guard for the transform: no source file of a controller that uses the pod cache reads a field
 * the cache drops. If this fails, either read that field from the API server or stop dropping it.
 */
describe('cached pods: no controller reads a dropped field', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const sourceDirs = [
    // The CLI has no informer: it reads every object from the API server.
    ...readdirSync(path.join(root, 'apps'))
      .filter((app) => app !== 'cli')
      .map((app) => path.join(root, 'apps', app, 'src'))
      .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true),
    ...['workload', 'inplace-update', 'lifecycle', 'pvc-instance', 'revision'].map((name) =>
      path.join(root, 'packages', name, 'src'),
    ),
  ];
  // Injection reads the pod of an admission request, never a cached one (it reads spec containers'
  // volumeMounts, which the cache keeps; the pattern below cannot tell them from containerStatuses').
  const admissionOnly = new Set([path.join(root, 'apps', 'sidecarset', 'src', 'injection', 'build-sidecars.ts')]);
  // BroadcastJob reads these fields of other objects than cached pods: the template's restartPolicy
  // (job-pods.ts), the job's status.startTime (reconciler.ts), and the tolerations of pods built from
  // the template to check a node's fit (node-fitness.ts; node-plan.ts never passes it a cached pod).
  const otherObjects = new Set(
    ['job/job-pods.ts', 'reconciler.ts', 'nodes/node-fitness.ts'].map((file) =>
      path.join(root, 'apps', 'broadcastjob', 'src', file),
    ),
  );
  const files = sourceDirs
    .flatMap((dir) => listSources(dir))
    .filter(
      (file) =>
        !file.endsWith('.test.ts') &&
        !file.includes(`${path.sep}testing${path.sep}`) &&
        !file.endsWith('cache-transforms.ts') &&
        !file.includes('.generated.') &&
        !admissionOnly.has(file) &&
        !otherObjects.has(file),
    );
  // A property read of the dropped field on a pod's spec, container, status or container status.
  const reads = CACHE_DROPPED_POD_FIELDS.filter((field) => !field.includes('kube-api-access')).map((field) => {
    const name = field.split('.').at(-1) ?? field;
    const owner =
      field.startsWith('spec.') && !field.includes('[]')
        ? 'spec'
        : field.startsWith('status.') && !field.includes('[]')
          ? 'status'
          : '\\w+';
    return { field, pattern: new RegExp(`\\b${owner}\\??\\.${name}\\b`) };
  });

  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(reads)('$field', ({ pattern }) => {
    const offenders = files.filter((file) =>
      pattern.test(readFileSync(file, 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '')),
    );
    expect(offenders.map((file) => path.relative(root, file))).toEqual([]);
  });
});

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? listSources(full) : full.endsWith('.ts') ? [full] : [];
  });
}
