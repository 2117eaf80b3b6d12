import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { runningPod } from '../../test/fixtures/revisions.ts';
import { podCanApplyInPlace } from './pod-can-apply.ts';
import type { UpdateSpec } from './update-spec.ts';

const base: UpdateSpec = {
  revision: 'r',
  containerImages: {},
  containerRefMetadata: {},
  containerResources: {},
  metadataPatch: undefined,
  updateEnvFromMetadata: false,
  graceSeconds: 0,
};
const envSpec: UpdateSpec = {
  ...base,
  containerRefMetadata: { main: { labels: { track: 'canary' } } },
  updateEnvFromMetadata: true,
};
const withMeta: Pod = runningPod({ annotations: { 'apps.kruise.io/runtime-containers-meta': '{"containers":[]}' } });

describe('podCanApplyInPlace', () => {
  it.each<{ name: string; pod: Pod; spec: UpdateSpec; ok: boolean; reason?: RegExp }>([
    { name: 'an image update', pod: runningPod(), spec: { ...base, containerImages: { main: 'x' } }, ok: true },
    { name: 'env from metadata with kruise-daemon reporting', pod: withMeta, spec: envSpec, ok: true },
    {
      name: 'env from metadata without a node agent',
      pod: runningPod(),
      spec: envSpec,
      ok: false,
      reason:
        /container\(s\) main reads labels\/annotations that change, and no node agent reports apps\.kruise\.io\/runtime-containers-meta/,
    },
    {
      name: 'a container the pod does not have',
      pod: runningPod(),
      spec: { ...base, containerImages: { ghost: 'x' } },
      ok: false,
      reason: /no container "ghost"/,
    },
  ])('$name', ({ pod, spec, ok, reason }) => {
    const result = podCanApplyInPlace(pod, spec);
    expect(result.ok).toBe(ok);
    if (!result.ok) {
      expect(result.reason).toMatch(reason ?? /./);
    }
  });
});
