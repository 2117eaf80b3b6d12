import { describe, expect, it } from 'vitest';

import { sidecarSetSchema } from '@kruise-ts/api';
import type { SidecarSet } from '@kruise-ts/api';

import {
  ignoredCause,
  PLACEHOLDER_CONTAINER_NAME,
  podContainerOf,
  sidecarSetFieldMapping,
  sidecarSetValidationPod,
  sidecarSetValidationTarget,
  VALIDATION_POD_NAME,
} from './validation-target.ts';

const OPTIONS = { namespace: 'kruise-system' };

function sidecarSet(spec: Record<string, unknown>): SidecarSet {
  return sidecarSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'logs' },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  });
}

const SIDECAR_ONLY = {
  podInjectPolicy: 'AfterAppContainer',
  upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' },
  shareVolumePolicy: { type: 'enabled' },
  shareVolumeDevicePolicy: { type: 'enabled' },
  transferEnv: [{ sourceContainerName: 'app', envName: 'TZ' }],
  resourcesPolicy: { targetContainersMode: 'sum', resourcesExpr: { limits: { cpu: 'cpu' } } },
};

describe('podContainerOf', () => {
  it('drops every SidecarSet-only field and keeps the container as written', () => {
    const [sidecar] =
      sidecarSet({
        containers: [
          {
            name: 'logger',
            image: 'busybox',
            env: [{ name: 'A', value: '1' }],
            volumeMounts: [{ name: 'logs', mountPath: '/logs' }],
            ...SIDECAR_ONLY,
          },
        ],
      }).spec.containers ?? [];
    expect(sidecar === undefined ? undefined : podContainerOf(sidecar)).toEqual({
      name: 'logger',
      image: 'busybox',
      env: [{ name: 'A', value: '1' }],
      volumeMounts: [{ name: 'logs', mountPath: '/logs' }],
    });
  });
});

describe('sidecarSetValidationPod', () => {
  it.each([
    {
      name: 'containers only: no placeholder, no initContainers, no volumes',
      spec: { containers: [{ name: 'logger', image: 'busybox' }] },
      expected: { placeholder: false, spec: { containers: [{ name: 'logger', image: 'busybox' }] } },
    },
    {
      name: 'containers, init containers and volumes, in the SidecarSet order',
      spec: {
        containers: [
          { name: 'a', image: 'a' },
          { name: 'b', image: 'b' },
        ],
        initContainers: [{ name: 'init', image: 'i' }],
        volumes: [{ name: 'logs', emptyDir: {} }],
      },
      expected: {
        placeholder: false,
        spec: {
          containers: [
            { name: 'a', image: 'a' },
            { name: 'b', image: 'b' },
          ],
          initContainers: [{ name: 'init', image: 'i' }],
          volumes: [{ name: 'logs', emptyDir: {} }],
        },
      },
    },
    {
      name: 'init containers only: the placeholder container, and a native sidecar kept as it is',
      spec: { initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }] },
      expected: {
        placeholder: true,
        spec: {
          containers: [{ name: PLACEHOLDER_CONTAINER_NAME, image: 'placeholder' }],
          initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }],
        },
      },
    },
    {
      name: 'an init container named as the placeholder: the placeholder takes another name',
      spec: { initContainers: [{ name: PLACEHOLDER_CONTAINER_NAME, image: 'i' }] },
      expected: {
        placeholder: true,
        spec: {
          containers: [{ name: `${PLACEHOLDER_CONTAINER_NAME}-1`, image: 'placeholder' }],
          initContainers: [{ name: PLACEHOLDER_CONTAINER_NAME, image: 'i' }],
        },
      },
    },
    {
      name: 'init containers stripped like containers',
      spec: {
        initContainers: [{ name: 'init', image: 'i', ...SIDECAR_ONLY }],
        containers: [{ name: 'c', image: 'c', ...SIDECAR_ONLY }],
      },
      expected: {
        placeholder: false,
        spec: { containers: [{ name: 'c', image: 'c' }], initContainers: [{ name: 'init', image: 'i' }] },
      },
    },
  ])('$name', ({ spec, expected }) => {
    const { pod, placeholder } = sidecarSetValidationPod(sidecarSet(spec), OPTIONS);
    expect({ placeholder, spec: pod.spec }).toEqual(expected);
  });

  it('is a pod of a fixed name in the given namespace', () => {
    const { pod } = sidecarSetValidationPod(sidecarSet({ containers: [{ name: 'logger', image: 'busybox' }] }), {
      namespace: 'kruise-ts-system',
    });
    expect(pod).toMatchObject({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: VALIDATION_POD_NAME, namespace: 'kruise-ts-system' },
    });
  });

  it('leaves the SidecarSet unchanged', () => {
    const set = sidecarSet({
      containers: [{ name: 'logger', image: 'busybox', ...SIDECAR_ONLY }],
      volumes: [{ name: 'logs', emptyDir: {} }],
    });
    const before = structuredClone(set);
    const { pod } = sidecarSetValidationPod(set, OPTIONS);
    pod.spec?.volumes?.push({ name: 'extra' });
    expect(set).toEqual(before);
  });
});

describe('sidecarSetFieldMapping', () => {
  it.each([
    { field: 'spec.containers[0].name', expected: 'spec.containers[0].name' },
    { field: 'spec.containers', expected: 'spec.containers' },
    { field: 'spec.initContainers[2].restartPolicy', expected: 'spec.initContainers[2].restartPolicy' },
    { field: 'spec.volumes[1].hostPath.path', expected: 'spec.volumes[1].hostPath.path' },
    { field: 'spec.restartPolicy', expected: 'spec' },
    { field: 'metadata.name', expected: 'spec' },
    { field: '', expected: 'spec' },
  ])('$field → $expected', ({ field, expected }) => {
    expect(sidecarSetFieldMapping(field)).toBe(expected);
  });
});

describe('ignoredCause', () => {
  it.each([
    {
      name: 'a mount of a pod volume',
      cause: { reason: 'FieldValueNotFound', field: 'spec.containers[0].volumeMounts[1].name' },
      placeholder: false,
      expected: true,
    },
    {
      name: 'an init container mount of a pod volume',
      cause: { reason: 'FieldValueNotFound', field: 'spec.initContainers[3].volumeMounts[0].name' },
      placeholder: false,
      expected: true,
    },
    {
      name: 'a device of a pod volume',
      cause: { reason: 'FieldValueNotFound', field: 'spec.containers[0].volumeDevices[0].name' },
      placeholder: false,
      expected: true,
    },
    {
      name: 'an invalid mount name',
      cause: { reason: 'FieldValueInvalid', field: 'spec.containers[0].volumeMounts[0].name' },
      placeholder: false,
      expected: false,
    },
    {
      name: 'a mount path not found (no such cause, but not a volume name)',
      cause: { reason: 'FieldValueNotFound', field: 'spec.containers[0].volumeMounts[0].mountPath' },
      placeholder: false,
      expected: false,
    },
    {
      name: 'a container name',
      cause: { reason: 'FieldValueInvalid', field: 'spec.containers[0].name' },
      placeholder: false,
      expected: false,
    },
    {
      name: 'the placeholder',
      cause: { reason: 'FieldValueInvalid', field: 'spec.containers[0].image' },
      placeholder: true,
      expected: true,
    },
    {
      name: 'the placeholder itself',
      cause: { reason: 'FieldValueInvalid', field: 'spec.containers[0]' },
      placeholder: true,
      expected: true,
    },
    {
      name: 'an init container next to the placeholder',
      cause: { reason: 'FieldValueInvalid', field: 'spec.initContainers[0].name' },
      placeholder: true,
      expected: false,
    },
    { name: 'a cause without a field', cause: { reason: 'FieldValueInvalid' }, placeholder: true, expected: false },
  ])('$name: $expected', ({ cause, placeholder, expected }) => {
    expect(ignoredCause(cause, placeholder)).toBe(expected);
  });
});

describe('sidecarSetValidationTarget', () => {
  it('has no claims and ignores the placeholder only when there is one', () => {
    const placeholderCause = { reason: 'FieldValueInvalid', field: 'spec.containers[0].image' };
    const withContainers = sidecarSetValidationTarget(
      sidecarSet({ containers: [{ name: 'logger', image: 'busybox' }] }),
      OPTIONS,
    );
    const initOnly = sidecarSetValidationTarget(
      sidecarSet({ initContainers: [{ name: 'init', image: 'i' }] }),
      OPTIONS,
    );
    expect([withContainers.claims, initOnly.claims]).toEqual([[], []]);
    expect([withContainers.ignorePodCause?.(placeholderCause), initOnly.ignorePodCause?.(placeholderCause)]).toEqual([
      false,
      true,
    ]);
  });
});
