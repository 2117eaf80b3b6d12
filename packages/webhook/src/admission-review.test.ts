import { describe, expect, it } from 'vitest';

import {
  admissionReviewResponse,
  allowedResponse,
  deniedResponse,
  parseAdmissionReview,
  patchResponse,
  patchResponseFromObjects,
} from './admission-review.ts';

const request = {
  uid: '705ab4f5-6393-11e8-b7cc-42010a800002',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  requestKind: { group: '', version: 'v1', kind: 'Pod' },
  requestResource: { group: '', version: 'v1', resource: 'pods' },
  name: 'web-0',
  namespace: 'default',
  operation: 'CREATE',
  userInfo: {
    username: 'system:serviceaccount:kube-system:replicaset-controller',
    uid: 'u',
    groups: ['system:serviceaccounts'],
    extra: { scopes: ['a'] },
  },
  object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0' } },
  oldObject: null,
  dryRun: false,
  options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
};
const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request };

describe('parseAdmissionReview', () => {
  it('reads a review as the API server sends it, objects left unparsed', () => {
    const parsed = parseAdmissionReview(review);
    expect(parsed).toMatchObject({
      ok: true,
      request: { uid: request.uid, operation: 'CREATE', namespace: 'default', object: request.object, dryRun: false },
    });
  });

  it('accepts a DELETE without object and a CONNECT with a subresource', () => {
    expect(
      parseAdmissionReview({
        ...review,
        request: { ...request, operation: 'DELETE', object: undefined, oldObject: request.object },
      }).ok,
    ).toBe(true);
    expect(
      parseAdmissionReview({ ...review, request: { ...request, operation: 'CONNECT', subResource: 'exec' } }).ok,
    ).toBe(true);
  });

  it.each([
    { name: 'not an object', body: 'hello', mentions: '(root)' },
    { name: 'null', body: null, mentions: '(root)' },
    { name: 'an array', body: [review], mentions: '(root)' },
    { name: 'wrong kind', body: { ...review, kind: 'TokenReview' }, mentions: 'kind' },
    { name: 'v1beta1', body: { ...review, apiVersion: 'admission.k8s.io/v1beta1' }, mentions: 'apiVersion' },
    { name: 'no request', body: { apiVersion: review.apiVersion, kind: review.kind }, mentions: 'request' },
    { name: 'no uid', body: { ...review, request: { ...request, uid: undefined } }, mentions: 'request.uid' },
    { name: 'empty uid', body: { ...review, request: { ...request, uid: '' } }, mentions: 'request.uid' },
    {
      name: 'unknown operation',
      body: { ...review, request: { ...request, operation: 'PATCH' } },
      mentions: 'request.operation',
    },
    {
      name: 'kind without version',
      body: { ...review, request: { ...request, kind: { group: '', kind: 'Pod' } } },
      mentions: 'request.kind.version',
    },
    {
      name: 'no userInfo',
      body: { ...review, request: { ...request, userInfo: undefined } },
      mentions: 'request.userInfo',
    },
    {
      name: 'groups not strings',
      body: { ...review, request: { ...request, userInfo: { groups: [1] } } },
      mentions: 'request.userInfo.groups.0',
    },
    {
      name: 'dryRun a string',
      body: { ...review, request: { ...request, dryRun: 'true' } },
      mentions: 'request.dryRun',
    },
  ])('refuses $name, naming the field', ({ body, mentions }) => {
    const parsed = parseAdmissionReview(body);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toContain(mentions);
  });
});

describe('responses', () => {
  it.each([
    { name: 'allowed', response: allowedResponse(), expected: { allowed: true } },
    {
      name: 'allowed with warnings',
      response: allowedResponse({ warnings: ['w'] }),
      expected: { allowed: true, warnings: ['w'] },
    },
    {
      name: 'denied',
      response: deniedResponse('no'),
      expected: { allowed: false, status: { code: 403, message: 'no', reason: 'Forbidden' } },
    },
    {
      name: 'denied with a code',
      response: deniedResponse('bad', { code: 422, reason: 'Invalid', warnings: ['w'] }),
      expected: { allowed: false, status: { code: 422, message: 'bad', reason: 'Invalid' }, warnings: ['w'] },
    },
    { name: 'an empty patch is no patch', response: patchResponse([]), expected: { allowed: true } },
  ])('$name', ({ response, expected }) => {
    expect(response).toEqual(expected);
  });

  it('a patch is base64 of the JSON Patch array, patchType JSONPatch', () => {
    const response = patchResponseFromObjects(
      { metadata: { name: 'a' } },
      { metadata: { name: 'a', labels: { 'x/y': 'z' } } },
      { warnings: ['w'] },
    );
    expect(response).toMatchObject({ allowed: true, patchType: 'JSONPatch', warnings: ['w'] });
    expect(JSON.parse(Buffer.from(response.patch ?? '', 'base64').toString('utf8'))).toEqual([
      { op: 'add', path: '/metadata/labels', value: { 'x/y': 'z' } },
    ]);
  });

  it('the review echoes the uid', () => {
    expect(admissionReviewResponse('u-1', deniedResponse('no'))).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'u-1', allowed: false, status: { code: 403, message: 'no', reason: 'Forbidden' } },
    });
  });
});
