import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { ApiError } from '@kruise-ts/controller-runtime';
import type { AdmissionRequest } from '@kruise-ts/webhook';
import type { StatusCause } from '@kruise-ts/controller-runtime';
import { admissionRequest } from '@kruise-ts/webhook/testing';
import type { AdmissionRequestInput } from '@kruise-ts/webhook/testing';
import { TemplateValidator, validationHandler } from '@kruise-ts/template-validation';
import type { DryRunWriter } from '@kruise-ts/template-validation';

import { sidecarSetValidation } from './sidecarset-validation.ts';
import { PLACEHOLDER_CONTAINER_NAME } from './validation-target.ts';

type PodContainer = NonNullable<Pod['spec']>['containers'][number];

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function containerCauses(
  containers: readonly PodContainer[],
  path: string,
  volumes: ReadonlySet<string>,
): StatusCause[] {
  return containers.flatMap((container, index) => [
    ...(DNS_LABEL.test(container.name)
      ? []
      : [
          {
            reason: 'FieldValueInvalid',
            field: `${path}[${String(index)}].name`,
            message: `Invalid value: ${JSON.stringify(container.name)}: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'`,
          },
        ]),
    ...(container.image === undefined
      ? [{ reason: 'FieldValueRequired', field: `${path}[${String(index)}].image`, message: 'Required value' }]
      : []),
    ...(container.volumeMounts ?? []).flatMap((mount, mountIndex) =>
      volumes.has(mount.name)
        ? []
        : [
            {
              reason: 'FieldValueNotFound',
              field: `${path}[${String(index)}].volumeMounts[${String(mountIndex)}].name`,
              message: `Not found: ${JSON.stringify(mount.name)}`,
            },
          ],
    ),
  ]);
}

/** A few of the API server's pod rules, answered as it answers them: a 422 Status with one cause per error. */
function podCauses(pod: Pod): StatusCause[] {
  const spec = pod.spec ?? { containers: [] };
  const volumes = new Set((spec.volumes ?? []).map((volume) => volume.name));
  const required =
    spec.containers.length === 0
      ? [{ reason: 'FieldValueRequired', field: 'spec.containers', message: 'Required value' }]
      : [];
  return [
    ...required,
    ...containerCauses(spec.containers, 'spec.containers', volumes),
    ...containerCauses(spec.initContainers ?? [], 'spec.initContainers', volumes),
  ];
}

function invalidPod(pod: Pod, causes: readonly StatusCause[]): ApiError {
  const name = pod.metadata?.name ?? '';
  const message = `Pod ${JSON.stringify(name)} is invalid: ${causes.map((cause) => `${cause.field ?? ''}: ${cause.message ?? ''}`).join(', ')}`;
  return new ApiError({
    code: 422,
    status: {
      kind: 'Status',
      status: 'Failure',
      message,
      reason: 'Invalid',
      code: 422,
      details: { name, kind: 'Pod', causes },
    },
  });
}

/** An in-memory API server for dry runs, remembering the pods it was sent. */
function fakeDryRun(failure?: Error): { writer: DryRunWriter; pods: Pod[] } {
  const pods: Pod[] = [];
  const createPod = (pod: Pod): Promise<void> => {
    pods.push(pod);
    const causes = podCauses(pod);
    return failure !== undefined
      ? Promise.reject(failure)
      : causes.length > 0
        ? Promise.reject(invalidPod(pod, causes))
        : Promise.resolve();
  };
  return { pods, writer: { createPod, createClaim: () => Promise.reject(new Error('a SidecarSet has no claims')) } };
}

function sidecarSetObject(spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'logs' },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  };
}

function request(object: unknown, extra: Partial<AdmissionRequestInput> = {}): AdmissionRequest {
  return admissionRequest({
    kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'SidecarSet' },
    resource: 'sidecarsets',
    name: 'logs',
    userInfo: { username: 'alice' },
    object,
    ...extra,
  });
}

function setup(failure?: Error) {
  const dryRun = fakeDryRun(failure);
  const validator = new TemplateValidator({ dryRun: dryRun.writer });
  const handler = validationHandler(sidecarSetValidation({ namespace: 'kruise-system' }), validator);
  return {
    handler,
    validator,
    pods: dryRun.pods,
    admit: (req: AdmissionRequest) => handler(req, new AbortController().signal),
  };
}

describe('the SidecarSet validation handler', () => {
  it('denies an invalid container name at the SidecarSet field, in the API server words', async () => {
    const response = await setup().admit(
      request(sidecarSetObject({ containers: [{ name: 'Logger', image: 'busybox' }] })),
    );
    expect(response).toMatchObject({ allowed: false, status: { code: 422, reason: 'Invalid' } });
    expect(response.status?.message).toBe(
      `SidecarSet "logs" is invalid: spec.containers[0].name: Invalid value: "Logger": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'`,
    );
  });

  it.each([
    {
      name: 'a valid SidecarSet',
      spec: {
        containers: [
          {
            name: 'logger',
            image: 'busybox',
            podInjectPolicy: 'AfterAppContainer',
            shareVolumePolicy: { type: 'enabled' },
          },
        ],
      },
    },
    {
      name: 'init containers only (the placeholder container is not the user’s)',
      spec: {
        initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }],
        updateStrategy: { type: 'NotUpdate' },
      },
    },
    {
      name: 'a mount of a volume of the pod it is injected into',
      spec: {
        containers: [{ name: 'logger', image: 'busybox', volumeMounts: [{ name: 'app-logs', mountPath: '/logs' }] }],
      },
    },
    {
      name: 'a mount of its own volume',
      spec: {
        containers: [{ name: 'logger', image: 'busybox', volumeMounts: [{ name: 'logs', mountPath: '/logs' }] }],
        volumes: [{ name: 'logs', emptyDir: {} }],
      },
    },
  ])('admits $name', async ({ spec }) => {
    expect(await setup().admit(request(sidecarSetObject(spec)))).toEqual({ allowed: true });
  });

  it.each([
    {
      name: 'an invalid init container next to the placeholder',
      spec: { initContainers: [{ name: 'Init', image: 'i' }] },
      message:
        'SidecarSet "logs" is invalid: spec.initContainers[0].name: Invalid value: "Init": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\'',
    },
    {
      name: 'several errors, the pod-volume mount left out',
      spec: {
        containers: [
          { name: 'a', image: 'a', volumeMounts: [{ name: 'app-logs', mountPath: '/logs' }] },
          { name: 'b' },
        ],
        initContainers: [{ name: 'I', image: 'i' }],
      },
      message:
        'SidecarSet "logs" is invalid: [spec.containers[1].image: Required value, spec.initContainers[0].name: Invalid value: "I": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\']',
    },
  ])('denies $name', async ({ spec, message }) => {
    const response = await setup().admit(request(sidecarSetObject(spec)));
    expect(response).toMatchObject({ allowed: false, status: { code: 422, reason: 'Invalid', message } });
  });

  it('dry-runs the fake pod in the controllers namespace, with the placeholder only when there are no containers', async () => {
    const { admit, pods } = setup();
    await admit(request(sidecarSetObject({ initContainers: [{ name: 'init', image: 'i' }] })));
    await admit(request(sidecarSetObject({ containers: [{ name: 'logger', image: 'busybox' }] })));
    expect(
      pods.map((pod) => [pod.metadata?.namespace, pod.spec?.containers.map((container) => container.name)]),
    ).toEqual([
      ['kruise-system', [PLACEHOLDER_CONTAINER_NAME]],
      ['kruise-system', ['logger']],
    ]);
  });

  it('does not dry-run an update that leaves the containers, init containers and volumes as they were', async () => {
    const { admit, validator } = setup();
    const old = sidecarSetObject({ containers: [{ name: 'logger', image: 'busybox' }] });
    const updated = sidecarSetObject({ containers: [{ name: 'logger', image: 'busybox' }], revisionHistoryLimit: 3 });
    expect(await admit(request(updated, { operation: 'UPDATE', oldObject: old }))).toEqual({ allowed: true });
    expect(validator.dryRuns).toBe(0);
  });

  it.each([
    {
      name: 'a DELETE',
      req: request(null, { operation: 'DELETE', oldObject: sidecarSetObject({}) }),
      expected: { allowed: true },
    },
    {
      name: 'an unreadable object',
      req: request({ spec: { selector: 'web' } }),
      expected: { allowed: false, status: { code: 400, reason: 'BadRequest' } },
    },
    {
      name: 'no object',
      req: request(null),
      expected: {
        allowed: false,
        status: {
          code: 400,
          reason: 'BadRequest',
          message: 'SidecarSet "logs" cannot be read: the request carries no SidecarSet object',
        },
      },
    },
  ])('answers $name', async ({ req, expected }) => {
    expect(await setup().admit(req)).toMatchObject(expected);
  });

  it('admits with a warning when the API server cannot answer', async () => {
    const response = await setup(new Error('connect ECONNREFUSED')).admit(
      request(sidecarSetObject({ containers: [{ name: 'Logger', image: 'busybox' }] })),
    );
    expect(response.allowed).toBe(true);
    expect(response.warnings?.[0]).toContain('connect ECONNREFUSED');
  });
});

/** The stored version, as a client writes it: customVersion a field, a namespaceSelector for v1alpha1's namespace. */
function v1beta1Object(spec: Record<string, unknown>): Record<string, unknown> {
  return {
    ...sidecarSetObject({
      customVersion: 'canary',
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'apps' } },
      ...spec,
    }),
    apiVersion: 'apps.kruise.io/v1beta1',
  };
}

function v1beta1Request(object: unknown, extra: Partial<AdmissionRequestInput> = {}): AdmissionRequest {
  return request(object, { kind: { group: 'apps.kruise.io', version: 'v1beta1', kind: 'SidecarSet' }, ...extra });
}

// The webhook is registered for both served versions (issue 39): a v1beta1 write reaches it without the
// conversion webhook, and is judged as the same SidecarSet written in v1alpha1.
describe('the SidecarSet validation handler, a request in v1beta1', () => {
  it('reads the object as the app does, in v1alpha1 (customVersion becomes its label)', () => {
    const parsed = sidecarSetValidation({ namespace: 'kruise-system' }).parse(
      v1beta1Object({ containers: [{ name: 'logger', image: 'busybox' }] }),
    );
    expect(parsed).toMatchObject({
      ok: true,
      value: {
        apiVersion: 'apps.kruise.io/v1alpha1',
        metadata: { labels: { 'apps.kruise.io/sidecarset-custom-version': 'canary' } },
      },
    });
  });

  it('denies an invalid container name as in v1alpha1, at the same field', async () => {
    const spec = { containers: [{ name: 'Logger', image: 'busybox' }] };
    const inV1alpha1 = await setup().admit(request(sidecarSetObject(spec)));
    const inV1beta1 = await setup().admit(v1beta1Request(v1beta1Object(spec)));
    expect(inV1beta1).toMatchObject({ allowed: false, status: { code: 422, reason: 'Invalid' } });
    expect(inV1beta1).toEqual(inV1alpha1);
  });

  it('admits a valid SidecarSet, having dry-run its containers', async () => {
    const { admit, pods } = setup();
    expect(await admit(v1beta1Request(v1beta1Object({ containers: [{ name: 'logger', image: 'busybox' }] })))).toEqual({
      allowed: true,
    });
    expect(pods.map((pod) => pod.spec?.containers.map((container) => container.name))).toEqual([['logger']]);
  });

  it('does not dry-run an update that leaves the containers as they were', async () => {
    const { admit, validator } = setup();
    const old = v1beta1Object({ containers: [{ name: 'logger', image: 'busybox' }] });
    const updated = v1beta1Object({ containers: [{ name: 'logger', image: 'busybox' }], customVersion: 'stable' });
    expect(await admit(v1beta1Request(updated, { operation: 'UPDATE', oldObject: old }))).toEqual({ allowed: true });
    expect(validator.dryRuns).toBe(0);
  });
});
