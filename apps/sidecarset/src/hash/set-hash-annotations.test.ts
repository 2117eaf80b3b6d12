import { describe, expect, it } from 'vitest';

import { sidecarSetSchema } from '@kruise-ts/api';

import { hashAnnotationsPatch } from './set-hash-annotations.ts';
import { sidecarSetHash, sidecarSetHashWithoutImage } from './sidecarset-hash.ts';

const set = (annotations?: Record<string, string>) =>
  sidecarSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 's', resourceVersion: '7', ...(annotations === undefined ? {} : { annotations }) },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'logger', image: 'busybox:1.36' }] },
  });

describe('hashAnnotationsPatch', () => {
  it('writes both hashes, guarded by the resourceVersion, when they are missing', () => {
    const unhashed = set();
    expect(hashAnnotationsPatch(unhashed)).toEqual({
      metadata: {
        resourceVersion: '7',
        annotations: {
          'kruise.io/sidecarset-hash': sidecarSetHash(unhashed.spec),
          'kruise.io/sidecarset-hash-without-image': sidecarSetHashWithoutImage(unhashed.spec),
        },
      },
    });
  });

  it('writes them when one is stale, and nothing when both are current', () => {
    const current = set();
    const hashes = {
      'kruise.io/sidecarset-hash': sidecarSetHash(current.spec),
      'kruise.io/sidecarset-hash-without-image': sidecarSetHashWithoutImage(current.spec),
    };
    expect(hashAnnotationsPatch(set({ ...hashes, other: 'x' }))).toBeUndefined();
    expect(hashAnnotationsPatch(set({ ...hashes, 'kruise.io/sidecarset-hash': 'old' }))?.metadata.annotations).toEqual(
      hashes,
    );
  });
});
