import { describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim } from '@kruise-ts/api';

import { isClaimCompatible, isClaimReady } from './compatibility.ts';

const template: PersistentVolumeClaim = { spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } } };

function claim(storage: string, options: { capacity?: string; storageClassName?: string; accessModes?: readonly string[] } = {}): PersistentVolumeClaim {
  return {
    spec: { accessModes: [...(options.accessModes ?? ['ReadWriteOnce'])], ...(options.storageClassName === undefined ? {} : { storageClassName: options.storageClassName }), resources: { requests: { storage } } },
    ...(options.capacity === undefined ? {} : { status: { capacity: { storage: options.capacity } } }),
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
