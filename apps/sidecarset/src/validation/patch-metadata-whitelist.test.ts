import { describe, expect, it } from 'vitest';

import { sidecarSetSchema } from '@kruise-ts/api';

import { patchMetadataWhitelistProblem } from './patch-metadata-whitelist.ts';

function set(annotations: Record<string, string> | undefined, labels: Record<string, string> = {}) {
  return sidecarSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 's', labels },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'c', image: 'busybox' }],
      ...(annotations === undefined ? {} : { patchPodMetadata: [{ annotations }] }),
    },
  });
}

const whitelist = (rules: unknown): Record<string, string> => ({
  SidecarSet_PatchPodMetadata_WhiteList: JSON.stringify({ rules }),
});
const meshOnly = whitelist([{ allowedAnnotationKeyExprs: ['^mesh\\.io/.*$'] }]);

describe('patchMetadataWhitelistProblem (OpenKruise ValidateSidecarSetPatchMetadataWhitelist)', () => {
  it.each([
    ['no patchPodMetadata', set(undefined), undefined, false, undefined],
    ['no ConfigMap', set({ 'mesh.io/a': 'x' }), undefined, false, 'SidecarSet patch metadata whitelist not found'],
    ['no ConfigMap, defaults allowed', set({ 'mesh.io/a': 'x' }), undefined, true, undefined],
    [
      'a ConfigMap without the key',
      set({ 'mesh.io/a': 'x' }),
      { other: 'x' },
      false,
      'SidecarSet patch metadata whitelist not found',
    ],
    ['an allowed key', set({ 'mesh.io/a': 'x' }), meshOnly, false, undefined],
    [
      'a key no expression matches',
      set({ 'mesh.io/a': 'x', 'other/b': 'y' }),
      meshOnly,
      false,
      'sidecarSet patch metadata annotation(other/b) is not allowed',
    ],
    [
      'a key no expression matches, even with defaults allowed',
      set({ 'other/b': 'y' }),
      meshOnly,
      true,
      'sidecarSet patch metadata annotation(other/b) is not allowed',
    ],
    [
      'an expression matched anywhere in the key',
      set({ 'x-mesh-y': 'x' }),
      whitelist([{ allowedAnnotationKeyExprs: ['mesh'] }]),
      false,
      undefined,
    ],
    [
      'a rule whose selector does not select the SidecarSet',
      set({ 'mesh.io/a': 'x' }),
      whitelist([{ selector: { matchLabels: { team: 'mesh' } }, allowedAnnotationKeyExprs: ['.*'] }]),
      false,
      'sidecarSet patch metadata annotation is not allowed',
    ],
    [
      'no rule for the SidecarSet, defaults allowed',
      set({ 'mesh.io/a': 'x' }),
      whitelist([{ selector: { matchLabels: { team: 'mesh' } }, allowedAnnotationKeyExprs: ['.*'] }]),
      true,
      undefined,
    ],
    [
      'a rule whose selector selects it',
      set({ 'mesh.io/a': 'x' }, { team: 'mesh' }),
      whitelist([{ selector: { matchLabels: { team: 'mesh' } }, allowedAnnotationKeyExprs: ['^mesh'] }]),
      false,
      undefined,
    ],
    [
      'empty rules',
      set({ 'mesh.io/a': 'x' }),
      whitelist(null),
      false,
      'sidecarSet patch metadata annotation is not allowed',
    ],
  ] as const)('%s', (...[, sidecarSet, configuration, defaultsAllowed, problem]) => {
    expect(patchMetadataWhitelistProblem(sidecarSet, configuration, defaultsAllowed)).toBe(problem);
  });

  it('refuses a whitelist that cannot be read, or an expression that does not compile', () => {
    expect(
      patchMetadataWhitelistProblem(set({ a: 'x' }), { SidecarSet_PatchPodMetadata_WhiteList: '{' }, true),
    ).toContain('is not valid JSON');
    expect(
      patchMetadataWhitelistProblem(set({ a: 'x' }), whitelist([{ allowedAnnotationKeyExprs: ['('] }]), true),
    ).toContain('error parsing regexp');
  });
});
