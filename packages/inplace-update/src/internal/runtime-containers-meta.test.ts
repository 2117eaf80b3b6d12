import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { formatRuntimeContainerMeta, runtimeContainerMeta } from './runtime-containers-meta.ts';
import type { RuntimeContainerMetaSet } from './runtime-containers-meta.ts';

const pod = (value: string | undefined): Pod => ({
  metadata: { annotations: value === undefined ? {} : { 'apps.kruise.io/runtime-containers-meta': value } },
});

describe('runtime-containers-meta', () => {
  it('is written as kruise-daemon writes it, the env hash omitted when 0', () => {
    const meta: RuntimeContainerMetaSet = {
      containers: [
        {
          name: 'a',
          containerID: 'containerd://1',
          restartCount: 2,
          hashes: { plainHash: 123, extractedEnvFromMetadataHash: 456 },
        },
        {
          name: 'b',
          containerID: 'containerd://2',
          restartCount: 0,
          hashes: { plainHash: 0, extractedEnvFromMetadataHash: 0 },
        },
      ],
    };
    const text = formatRuntimeContainerMeta(meta);
    expect(text).toBe(
      '{"containers":[{"name":"a","containerID":"containerd://1","restartCount":2,"hashes":{"plainHash":123,"extractedEnvFromMetadataHash":456}},' +
        '{"name":"b","containerID":"containerd://2","restartCount":0,"hashes":{"plainHash":0}}]}',
    );
    expect(runtimeContainerMeta(pod(text))).toEqual({ kind: 'meta', meta });
  });

  it.each<[string, string | undefined, string]>([
    ['absent', undefined, 'absent'],
    ['null', 'null', 'meta'],
    [
      'newer fields (plainHashWithoutResources) are ignored',
      '{"containers":[{"name":"a","hashes":{"plainHash":1,"plainHashWithoutResources":2}}]}',
      'meta',
    ],
    ['not JSON', '{', 'malformed'],
    ['a wrong type', '{"containers":[{"restartCount":"1"}]}', 'malformed'],
  ])('%s', (_name, value, kind) => {
    expect(runtimeContainerMeta(pod(value)).kind).toBe(kind);
  });
});
