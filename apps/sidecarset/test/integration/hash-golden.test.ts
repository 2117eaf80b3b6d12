/**
 * Golden vectors for the SidecarSet hashes: SidecarSets stored by the real API server (the CRD's
 * defaults applied) go through OpenKruise's steps in Go (packages/revision/test/golden-go, mode
 * `sidecarset`: kruise-api's own SidecarSet type, the webhook's container defaults, json.Marshal of
 * the containers map, sha256, SafeEncodeString); sidecarSetHash must give the same bytes and hashes.
 * The same for the ControllerRevision data (history control's getPatch): byte for byte.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sidecarSetSchema } from '@kruise-ts/api';
import type { SidecarSet, SidecarSetInput } from '@kruise-ts/api';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { applyCrdFiles, buildGoProgram, runGoProgram, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import {
  sidecarSetHash,
  sidecarSetHashWithoutImage,
  sidecarSetResource,
  sidecarSetRevisionData,
} from '../../src/index.ts';
import { sidecarSetHashInput } from '../../src/hash/sidecarset-hash.ts';

const client = testClient(testKubeConfig());
const RUN = randomBytes(3).toString('hex');
const CRD_FILE = fileURLToPath(new URL('../../../../crds/apps.kruise.io_sidecarsets.yaml', import.meta.url));

type Spec = Partial<SidecarSetInput['spec']>;
const containers = (...list: NonNullable<Spec['containers']>): Spec => ({ containers: list });

const CASES: readonly { readonly name: string; readonly spec: Spec }[] = [
  {
    name: 'docs-sample',
    spec: containers({
      name: 'sidecar1',
      image: 'centos:6.7',
      command: ['sleep', '999d'],
      volumeMounts: [{ name: 'log-volume', mountPath: '/var/log' }],
    }),
  },
  { name: 'no-tag', spec: containers({ name: 's', image: 'busybox' }) },
  { name: 'latest', spec: containers({ name: 's', image: 'docker.io/library/busybox:latest' }) },
  { name: 'digest', spec: containers({ name: 's', image: `busybox@sha256:${'a'.repeat(64)}` }) },
  { name: 'registry-port', spec: containers({ name: 's', image: 'localhost:5000/team/agent' }) },
  { name: 'registry-port-tag', spec: containers({ name: 's', image: 'localhost:5000/team/agent:v2' }) },
  { name: 'explicit-pull-policy', spec: containers({ name: 's', image: 'busybox', imagePullPolicy: 'Never' }) },
  {
    name: 'ports-env',
    spec: containers({
      name: 's',
      image: 'envoy:1.30',
      ports: [{ containerPort: 15001 }, { containerPort: 9901, name: 'admin', protocol: 'UDP' }],
      env: [
        { name: 'A', value: 'x' },
        { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      ],
    }),
  },
  {
    name: 'probes',
    spec: containers({
      name: 's',
      image: 'agent:1',
      livenessProbe: { httpGet: { port: 8080 } },
      readinessProbe: { tcpSocket: { port: 9090 }, periodSeconds: 5 },
      lifecycle: { preStop: { httpGet: { port: 'http', path: '/quit' } }, postStart: { exec: { command: ['true'] } } },
    }),
  },
  {
    name: 'resources',
    spec: containers({
      name: 's',
      image: 'agent:1',
      resources: {
        requests: { cpu: '0.5', memory: '128Mi' },
        limits: { cpu: 1, memory: '1Gi', 'ephemeral-storage': '2G' },
      },
    }),
  },
  {
    name: 'sidecar-fields',
    spec: containers({
      name: 's',
      image: 'agent:1',
      podInjectPolicy: 'AfterAppContainer',
      shareVolumePolicy: { type: 'enabled' },
      upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'agent:empty' },
      transferEnv: [
        { sourceContainerName: 'app', envName: 'A' },
        {
          sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['c']" } },
          envNames: ['B', 'C'],
        },
      ],
    }),
  },
  {
    name: 'two-and-security',
    spec: containers(
      {
        name: 'b',
        image: 'b:1',
        securityContext: { runAsUser: 1000, capabilities: { add: ['NET_ADMIN'] } },
        envFrom: [{ configMapRef: { name: 'cm' } }],
      },
      { name: 'a', image: 'a:1', args: ['--x'], workingDir: '/w' },
    ),
  },
  {
    name: 'native-sidecar',
    spec: {
      containers: [{ name: 's', image: 'agent:1' }],
      initContainers: [
        { name: 'native', image: 'proxy:1', restartPolicy: 'Always' },
        { name: 'plain', image: 'init:1' },
      ],
      updateStrategy: { type: 'NotUpdate' },
    },
  },
  { name: 'init-only', spec: { containers: null as never, initContainers: [{ name: 'plain', image: 'init:1' }] } },
  {
    name: 'revision-fields',
    spec: {
      containers: [{ name: 's', image: 'agent:1', volumeMounts: [{ name: 'conf', mountPath: '/etc/agent' }] }],
      volumes: [
        { name: 'conf', configMap: { name: 'agent', defaultMode: 420 } },
        { name: 'scratch', emptyDir: { sizeLimit: '1Gi' } },
      ],
      imagePullSecrets: [{ name: 'registry' }],
      patchPodMetadata: [{ annotations: { 'example.com/<team>': 'a&b' }, patchPolicy: 'Overwrite' }],
    },
  },
];

/** Containers with every default of OpenKruise's SidecarSet webhook explicit (its defaulting is checked above). */
const defaulted = {
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
} as const;

/** SidecarSets with OpenKruise 1.9's resourcesPolicy, hashed by test/golden-go (1.9's field order and shape). */
const RESOURCES_POLICY_CASES: readonly { readonly name: string; readonly spec: Spec }[] = [
  {
    name: 'rp-sum-default-regex',
    spec: containers({
      name: 's',
      image: 'agent:1',
      ...defaulted,
      resourcesPolicy: {
        targetContainersMode: 'sum',
        resourcesExpr: {
          limits: { cpu: 'cpu*50%', memory: 'memory' },
          requests: { cpu: 'max(cpu*10%, 50m)', memory: 'memory + 32Mi' },
        },
      },
    }),
  },
  {
    name: 'rp-max-requests',
    spec: containers({
      name: 's',
      image: 'agent:1',
      ...defaulted,
      resourcesPolicy: {
        targetContainersMode: 'max',
        targetContainersNameRegex: '^app',
        resourcesExpr: { requests: { memory: '128Mi' } },
      },
    }),
  },
  {
    name: 'rp-native-sidecar',
    spec: {
      containers: [{ name: 's', image: 'agent:1', ...defaulted }],
      initContainers: [
        {
          name: 'proxy',
          image: 'proxy:1',
          restartPolicy: 'Always',
          ...defaulted,
          resourcesPolicy: {
            targetContainersMode: 'sum',
            targetContainersNameRegex: '.*',
            resourcesExpr: { limits: { memory: 'memory/2' } },
          },
        },
      ],
      updateStrategy: { type: 'NotUpdate' },
    },
  },
  {
    name: 'rp-empty-expressions',
    spec: containers({
      name: 's',
      image: 'agent:1',
      ...defaulted,
      resourcesPolicy: { targetContainersMode: 'sum', resourcesExpr: {} },
    }),
  },
];

interface GoVector {
  readonly encoded?: string;
  readonly hash?: string;
  readonly hashWithoutImage?: string;
  readonly revisionData?: string;
  readonly error?: string;
}

let stored: SidecarSet[] = [];
let vectors: GoVector[] = [];
let storedWithPolicy: SidecarSet[] = [];
let policyVectors: GoVector[] = [];

function storeAll(cases: readonly { readonly name: string; readonly spec: Spec }[]): Promise<SidecarSet[]> {
  return Promise.all(
    cases.map(async ({ name, spec }) => {
      const body = {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'SidecarSet',
        metadata: { name: `golden-${name}-${RUN}` },
        spec: { selector: { matchLabels: { golden: RUN } }, ...spec },
      };
      return sidecarSetSchema.parse(await client.create(sidecarSetResource, body as SidecarSet));
    }),
  );
}

beforeAll(async () => {
  await applyCrdFiles(testKubeConfig(), [CRD_FILE]);
  stored = await storeAll(CASES);
  storedWithPolicy = await storeAll(RESOURCES_POLICY_CASES);
  const binary = await buildGoProgram({
    name: 'revision-golden-go',
    moduleDir: fileURLToPath(new URL('../../../../packages/revision/test/golden-go/', import.meta.url)),
    binary: 'golden-go',
    logPrefix: 'revision',
  });
  vectors = JSON.parse(await runGoProgram(binary, JSON.stringify(stored), ['sidecarset'])) as GoVector[];
  const policyBinary = await buildGoProgram({
    name: 'sidecarset-golden-go',
    moduleDir: fileURLToPath(new URL('../golden-go/', import.meta.url)),
    binary: 'sidecarset-golden-go',
    logPrefix: 'sidecarset',
  });
  policyVectors = JSON.parse(await runGoProgram(policyBinary, JSON.stringify(storedWithPolicy))) as GoVector[];
}, 600_000);

afterAll(async () => {
  await Promise.all(
    [...stored, ...storedWithPolicy].map((set) =>
      client.delete(sidecarSetResource, { name: set.metadata.name ?? '' }).catch(() => undefined),
    ),
  );
});

describe('SidecarSet hashes match OpenKruise byte for byte', () => {
  it.each(CASES.map((testCase, index) => ({ ...testCase, index })))('$name', ({ index }) => {
    const set = stored[index];
    const vector = vectors[index];
    if (set === undefined || vector === undefined) {
      throw new Error(`no stored set or vector ${String(index)}`);
    }
    expect(vector.error).toBeUndefined();
    expect(sidecarSetHashInput(set.spec)).toBe(vector.encoded);
    expect(sidecarSetHash(set.spec)).toBe(vector.hash);
    expect(sidecarSetHashWithoutImage(set.spec)).toBe(vector.hashWithoutImage);
    expect(sidecarSetRevisionData(set)).toBe(vector.revisionData);
  });

  it('changes the hash, not the hash without image, when only an image changes', () => {
    const [first] = stored;
    if (first === undefined) {
      throw new Error('no set');
    }
    const spec = {
      ...first.spec,
      containers: (first.spec.containers ?? []).map((container) => ({ ...container, image: 'centos:7' })),
    };
    expect(sidecarSetHash(spec)).not.toBe(sidecarSetHash(first.spec));
    expect(sidecarSetHashWithoutImage(spec)).toBe(sidecarSetHashWithoutImage(first.spec));
  });
});

describe('SidecarSet hashes with a resourcesPolicy match OpenKruise 1.9 byte for byte', () => {
  it.each(RESOURCES_POLICY_CASES.map((testCase, index) => ({ ...testCase, index })))('$name', ({ index }) => {
    const set = storedWithPolicy[index];
    const vector = policyVectors[index];
    if (set === undefined || vector === undefined) {
      throw new Error(`no stored set or vector ${String(index)}`);
    }
    expect(vector.error).toBeUndefined();
    expect(vector.encoded).toContain('"resourcesPolicy":');
    expect(sidecarSetHashInput(set.spec)).toBe(vector.encoded);
    expect(sidecarSetHash(set.spec)).toBe(vector.hash);
    expect(sidecarSetHashWithoutImage(set.spec)).toBe(vector.hashWithoutImage);
  });
});
