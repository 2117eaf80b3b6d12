import { describe, expect, it } from 'vitest';

import { runningPod } from '../../test/fixtures/revisions.ts';
import { patchSpecToPod } from './patch-spec-to-pod.ts';
import type { InPlaceUpdateState } from './state.ts';
import type { UpdateSpec } from './update-spec.ts';

const NOW = Date.parse('2026-01-02T03:04:05Z');
const state: InPlaceUpdateState = {
  revision: 'r',
  updateTimestamp: '2026-01-02T03:04:00Z',
  lastContainerStatuses: null,
};
const spec: UpdateSpec = {
  revision: 'r',
  containerImages: {},
  containerRefMetadata: {},
  containerResources: {},
  metadataPatch: undefined,
  updateEnvFromMetadata: false,
  graceSeconds: 0,
};

describe('patchSpecToPod', () => {
  it('records one batch with every touched container, sorted', () => {
    const patch = patchSpecToPod({
      pod: runningPod(),
      spec: {
        ...spec,
        containerImages: { sidecar: 'b:2' },
        containerRefMetadata: { main: { annotations: { a: '1' } } },
        metadataPatch: { annotations: { a: '0', b: null } },
      },
      state,
      now: NOW,
    });
    expect(patch.state.containerBatchesRecord).toEqual([
      { timestamp: '2026-01-02T03:04:05Z', containers: ['main', 'sidecar'] },
    ]);
    expect(patch.state.lastContainerStatuses).toEqual({ sidecar: { imageID: 'sim/busybox@sha256:1' } });
    expect(patch.annotations).toEqual({ a: '1', b: null });
    expect(patch.containers).toEqual([{ name: 'sidecar', image: 'b:2' }]);
  });

  it('records an empty batch for a metadata-only update, as OpenKruise does', () => {
    const patch = patchSpecToPod({
      pod: runningPod(),
      spec: { ...spec, metadataPatch: { labels: { x: 'y' } } },
      state,
      now: NOW,
    });
    expect(patch.state).toEqual({
      ...state,
      containerBatchesRecord: [{ timestamp: '2026-01-02T03:04:05Z', containers: [] }],
    });
    expect(patch.labels).toEqual({ x: 'y' });
  });

  it('keeps imageIDs recorded by an earlier batch', () => {
    const patch = patchSpecToPod({
      pod: runningPod(),
      spec: { ...spec, containerImages: { main: 'n:2' } },
      state: { ...state, lastContainerStatuses: { main: { imageID: 'first' } } },
      now: NOW,
    });
    expect(patch.state.lastContainerStatuses).toEqual({ main: { imageID: 'first' } });
  });
});
