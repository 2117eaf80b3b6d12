import { describe, expect, it } from 'vitest';

import { runningPod } from '../../test/fixtures/revisions.ts';
import { resizePatch } from './resize.ts';
import type { ContainerResources } from './update-spec.ts';

describe('resizePatch', () => {
  it.each<[string, Record<string, ContainerResources>, object | undefined]>([
    [
      'changed cpu limit',
      { main: { limits: { cpu: '300m' } } },
      { spec: { containers: [{ name: 'main', resources: { limits: { cpu: '300m' } } }] } },
    ],
    [
      'amounts equal in another notation are left out',
      { main: { limits: { cpu: '0.2', memory: '256Mi' }, requests: { cpu: '100m' } } },
      { spec: { containers: [{ name: 'main', resources: { limits: { memory: '256Mi' } } }] } },
    ],
    ['nothing changes', { main: { requests: { memory: '64Mi' } } }, undefined],
    ['non-resizable resources are ignored', { main: { requests: { 'ephemeral-storage': '1Gi' } } }, undefined],
    [
      'a resource the container does not have yet',
      { sidecar: { requests: { cpu: '10m' } } },
      { spec: { containers: [{ name: 'sidecar', resources: { requests: { cpu: '10m' } } }] } },
    ],
  ])('%s', (_name, resources, expected) => {
    expect(resizePatch(runningPod(), resources)).toEqual(expected);
  });
});
