import { describe, expect, it } from 'vitest';

import {
  ApiError,
  isAlreadyExists,
  isConflict,
  isGone,
  isInvalid,
  isNotFound,
  isTooManyRequests,
} from './api-error.ts';
import { controllerRef, objectKey, splitObjectKey } from './kube-object.ts';
import { apiVersionOf, defineResource, resourcePath } from './resource-type.ts';

const pods = defineResource({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });
const clonesets = defineResource({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'clonesets',
  kind: 'CloneSet',
  namespaced: true,
});
const nodes = defineResource({ group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false });

describe('resource paths', () => {
  it.each([
    [resourcePath(pods, {}), '/api/v1/pods'],
    [resourcePath(pods, { namespace: 'ns' }), '/api/v1/namespaces/ns/pods'],
    [resourcePath(pods, { namespace: 'ns', name: 'p', subresource: 'resize' }), '/api/v1/namespaces/ns/pods/p/resize'],
    [
      resourcePath(clonesets, { namespace: 'ns', name: 'cs', subresource: 'scale' }),
      '/apis/apps.kruise.io/v1alpha1/namespaces/ns/clonesets/cs/scale',
    ],
    [resourcePath(nodes, { namespace: 'ignored', name: 'n1' }), '/api/v1/nodes/n1'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('names the api version', () => {
    expect([apiVersionOf(pods), apiVersionOf(clonesets)]).toEqual(['v1', 'apps.kruise.io/v1alpha1']);
  });
});

describe('ApiError', () => {
  it.each([
    [404, undefined, isNotFound],
    [409, 'AlreadyExists', isAlreadyExists],
    [409, 'Conflict', isConflict],
    [409, undefined, isConflict],
    [422, 'Invalid', isInvalid],
    [429, undefined, isTooManyRequests],
    [410, 'Expired', isGone],
    [410, undefined, isGone],
  ])('HTTP %i with reason %s', (code, reason, predicate) => {
    const error = new ApiError({ code, status: reason === undefined ? undefined : { kind: 'Status', reason, code } });
    expect(predicate(error)).toBe(true);
    expect(isNotFound(new Error('plain'))).toBe(false);
  });

  it('carries the field causes and Retry-After', () => {
    const error = new ApiError({
      code: 422,
      status: {
        kind: 'Status',
        reason: 'Invalid',
        message: 'CloneSet "x" is invalid',
        details: { causes: [{ field: 'spec.replicas', message: 'must be >= 0' }] },
      },
      retryAfterSeconds: 3,
    });
    expect(error.message).toBe('CloneSet "x" is invalid');
    expect(error.causes).toEqual([{ field: 'spec.replicas', message: 'must be >= 0' }]);
    expect(error.retryAfterSeconds).toBe(3);
  });
});

describe('object keys', () => {
  it('round-trips namespaced and cluster-scoped keys', () => {
    expect(objectKey({ metadata: { namespace: 'ns', name: 'a' } })).toBe('ns/a');
    expect(objectKey({ metadata: { name: 'n1' } })).toBe('n1');
    expect(splitObjectKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(splitObjectKey('n1')).toEqual({ namespace: '', name: 'n1' });
  });

  it('finds the controller reference', () => {
    const ref = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: 'u', controller: true };
    expect(controllerRef({ metadata: { ownerReferences: [{ ...ref, controller: false, uid: 'x' }, ref] } })?.uid).toBe(
      'u',
    );
    expect(controllerRef({ metadata: {} })).toBeUndefined();
  });
});
