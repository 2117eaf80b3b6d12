import { describe, expect, it } from 'vitest';

import { allowedResponse } from '@kruise-ts/webhook';
import type { AdmissionRequest } from '@kruise-ts/webhook';
import { admissionRequest } from '@kruise-ts/webhook/testing';

import { sidecarSetValidation } from './sidecarset-validation.ts';
import { withPatchMetadataWhitelist } from './whitelist-handler.ts';

const parse = sidecarSetValidation({ namespace: 'kruise-system' }).parse;

function request(patchPodMetadata?: unknown[]): AdmissionRequest {
  const object = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'mesh' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'c', image: 'busybox' }],
      ...(patchPodMetadata === undefined ? {} : { patchPodMetadata }),
    },
  };
  return admissionRequest({
    kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'SidecarSet' },
    resource: 'sidecarsets',
    name: 'mesh',
    object,
  });
}

describe('withPatchMetadataWhitelist', () => {
  const inner = () => Promise.resolve(allowedResponse());
  let reads = 0;
  const handler = withPatchMetadataWhitelist(inner, {
    parse,
    configuration: () => {
      reads += 1;
      return Promise.resolve({
        SidecarSet_PatchPodMetadata_WhiteList: '{"rules":[{"allowedAnnotationKeyExprs":["^mesh/"]}]}',
      });
    },
    defaultsAllowed: false,
  });
  const signal = new AbortController().signal;

  it('denies a key outside the whitelist at spec.patchPodMetadata, in OpenKruise words', async () => {
    const response = await handler(request([{ annotations: { 'other/x': '1' } }]), signal);
    expect(response).toMatchObject({
      allowed: false,
      status: {
        code: 422,
        reason: 'Invalid',
        message:
          'SidecarSet "mesh" is invalid: spec.patchPodMetadata: Required value: sidecarSet patch metadata annotation(other/x) is not allowed',
      },
    });
  });

  it('passes an allowed key, and reads no ConfigMap for a SidecarSet without patchPodMetadata', async () => {
    expect(await handler(request([{ annotations: { 'mesh/x': '1' } }]), signal)).toMatchObject({ allowed: true });
    const before = reads;
    expect(await handler(request(), signal)).toMatchObject({ allowed: true });
    expect(reads).toBe(before);
  });
});

describe('withPatchMetadataWhitelist, a request in v1beta1', () => {
  it('denies a key outside the whitelist as in v1alpha1', async () => {
    const handler = withPatchMetadataWhitelist(() => Promise.resolve(allowedResponse()), {
      parse,
      configuration: () =>
        Promise.resolve({
          SidecarSet_PatchPodMetadata_WhiteList: '{"rules":[{"allowedAnnotationKeyExprs":["^mesh/"]}]}',
        }),
      defaultsAllowed: false,
    });
    const v1alpha1 = request([{ annotations: { 'other/x': '1' } }]);
    const object = { ...(v1alpha1.object as Record<string, unknown>), apiVersion: 'apps.kruise.io/v1beta1' };
    const v1beta1 = admissionRequest({
      kind: { group: 'apps.kruise.io', version: 'v1beta1', kind: 'SidecarSet' },
      resource: 'sidecarsets',
      name: 'mesh',
      object,
    });
    const signal = new AbortController().signal;
    expect(await handler(v1beta1, signal)).toEqual(await handler(v1alpha1, signal));
    expect(await handler(v1beta1, signal)).toMatchObject({ allowed: false, status: { code: 422 } });
  });
});
