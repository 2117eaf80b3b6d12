import { describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim } from '@kruise-ts/api';

import {
  claimNeedsExpansion,
  hasRequestedCapacity,
  isClaimCompatible,
  isClaimExpansionCompleted,
  isClaimReady,
  isClaimShapeCompatible,
} from './compatibility.ts';

const template: PersistentVolumeClaim = {
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } },
};

function claim(
  storage: string,
  options: {
    capacity?: string;
    storageClassName?: string;
    accessModes?: readonly string[];
    resizePending?: boolean;
  } = {},
): PersistentVolumeClaim {
  return {
    spec: {
      accessModes: [...(options.accessModes ?? ['ReadWriteOnce'])],
      ...(options.storageClassName === undefined ? {} : { storageClassName: options.storageClassName }),
      resources: { requests: { storage } },
    },
    status: {
      ...(options.capacity === undefined ? {} : { capacity: { storage: options.capacity } }),
      ...(options.resizePending === true ? { conditions: [{ type: 'FileSystemResizePending', status: 'True' }] } : {}),
    },
  };
}

describe('isClaimCompatible', () => {
  it.each([
    ['1Gi', {}, true],
    ['1024Mi', {}, true],
    ['2Gi', { storageClassName: 'fast' }, true],
    ['512Mi', {}, false],
    ['1Gi', { storageClassName: 'slow' }, false],
    ['1Gi', { accessModes: ['ReadWriteMany'] }, false],
  ] as const)('%s %j ⇒ %s', (storage, options, expected) => {
    expect(isClaimCompatible(claim(storage, options), template)).toBe(expected);
  });
});

describe('isClaimReady', () => {
  it('needs the capacity of the request', () => {
    expect(isClaimReady(claim('1Gi', { capacity: '1Gi' }), template)).toBe(true);
    expect(isClaimReady(claim('2Gi', { capacity: '1Gi' }), template)).toBe(false);
    expect(isClaimReady(claim('1Gi'), template)).toBe(false);
  });
});

describe('isClaimShapeCompatible and claimNeedsExpansion', () => {
  it.each([
    { storage: '512Mi', options: {}, shape: true, expand: true },
    { storage: '1Gi', options: {}, shape: true, expand: false },
    { storage: '2Gi', options: {}, shape: true, expand: false },
    { storage: '512Mi', options: { storageClassName: 'slow' }, shape: false, expand: true },
    { storage: '512Mi', options: { accessModes: ['ReadWriteMany'] }, shape: false, expand: true },
  ])('$storage $options: shape $shape, needs expansion $expand', ({ storage, options, shape, expand }) => {
    expect(isClaimShapeCompatible(claim(storage, options), template)).toBe(shape);
    expect(claimNeedsExpansion(claim(storage, options), template)).toBe(expand);
  });
});

describe('isClaimExpansionCompleted', () => {
  it('needs the request, and the capacity or only the file system left to grow', () => {
    expect(isClaimExpansionCompleted(claim('512Mi', { capacity: '512Mi' }), template)).toBe(false);
    expect(isClaimExpansionCompleted(claim('1Gi', { capacity: '512Mi' }), template)).toBe(false);
    expect(isClaimExpansionCompleted(claim('1Gi', { capacity: '512Mi', resizePending: true }), template)).toBe(true);
    expect(isClaimExpansionCompleted(claim('1Gi', { capacity: '1Gi' }), template)).toBe(true);
  });
});

describe('hasRequestedCapacity', () => {
  it('compares the capacity with the claim’s own request', () => {
    expect(hasRequestedCapacity(claim('2Gi', { capacity: '2048Mi' }))).toBe(true);
    expect(hasRequestedCapacity(claim('2Gi', { capacity: '1Gi' }))).toBe(false);
    expect(hasRequestedCapacity(claim('2Gi'))).toBe(false);
  });
});
