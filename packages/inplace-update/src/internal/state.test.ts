import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { formatInPlaceUpdateState, readInPlaceUpdateState, stateAnnotation } from './state.ts';
import type { InPlaceUpdateState } from './state.ts';

const podWith = (annotations: Record<string, string>): Pod => ({ metadata: { name: 'p', annotations } });

describe('formatInPlaceUpdateState', () => {
  it.each<[string, InPlaceUpdateState, string]>([
    [
      'a new state: lastContainerStatuses is written as null',
      { revision: 'demo-1', updateTimestamp: '2026-01-02T03:04:05Z', lastContainerStatuses: null },
      '{"revision":"demo-1","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":null}',
    ],
    [
      'an image update',
      {
        revision: 'demo-7c9d5b4f8',
        updateTimestamp: '2026-01-02T03:04:05Z',
        lastContainerStatuses: { main: { imageID: 'docker-pullable://nginx@sha256:1' }, empty: {} },
        updateImages: true,
        containerBatchesRecord: [{ timestamp: '2026-01-02T03:04:05Z', containers: ['main'] }],
      },
      '{"revision":"demo-7c9d5b4f8","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":{"empty":{},"main":{"imageID":"docker-pullable://nginx@sha256:1"}},"updateImages":true,"containerBatchesRecord":[{"timestamp":"2026-01-02T03:04:05Z","containers":["main"]}]}',
    ],
    [
      'every field, in Go struct order',
      {
        containerBatchesRecord: [{ timestamp: null, containers: null }],
        preCheckBeforeNext: { containersRequiredReady: ['a'] },
        nextContainerResources: { b: { requests: { cpu: '1000m' }, limits: { memory: '1Gi' } } },
        nextContainerRefMetadata: { b: { annotations: { x: '<y>' }, labels: { l: 'v' } } },
        nextContainerImages: { b: 'img:2' },
        updateImages: true,
        updateResources: true,
        updateEnvFromMetadata: true,
        lastContainerStatuses: {},
        updateTimestamp: '2026-01-02T04:04:05+01:00',
        revision: 'r',
      },
      '{"revision":"r","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":{},"updateEnvFromMetadata":true,"updateResources":true,"updateImages":true,' +
        '"nextContainerImages":{"b":"img:2"},"nextContainerRefMetadata":{"b":{"creationTimestamp":null,"labels":{"l":"v"},"annotations":{"x":"\\u003cy\\u003e"}}},' +
        '"nextContainerResources":{"b":{"limits":{"memory":"1Gi"},"requests":{"cpu":"1"}}},"preCheckBeforeNext":{"containersRequiredReady":["a"]},' +
        '"containerBatchesRecord":[{"timestamp":null,"containers":null}]}',
    ],
    [
      'empty maps and an empty pre-check',
      {
        revision: '',
        updateTimestamp: null,
        lastContainerStatuses: null,
        nextContainerImages: {},
        preCheckBeforeNext: {},
        containerBatchesRecord: [],
      },
      '{"revision":"","updateTimestamp":null,"lastContainerStatuses":null,"preCheckBeforeNext":{}}',
    ],
  ])('%s', (_name, state, expected) => {
    expect(formatInPlaceUpdateState(state)).toBe(expected);
  });
});

describe('reading the state annotation', () => {
  const text =
    '{"revision":"r","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":{"main":{"imageID":"i"}},"updateImages":true,"unknown":1}';

  it('reads the new key first, then the legacy key', () => {
    expect(readInPlaceUpdateState(podWith({ 'inplace-update-state': text }))?.revision).toBe('r');
    expect(
      readInPlaceUpdateState(
        podWith({ 'apps.kruise.io/inplace-update-state': '{"revision":"new"}', 'inplace-update-state': text }),
      )?.revision,
    ).toBe('new');
    expect(readInPlaceUpdateState(podWith({}))).toBeUndefined();
  });

  it('round-trips to the same text (unknown fields dropped)', () => {
    const state = readInPlaceUpdateState(podWith({ 'apps.kruise.io/inplace-update-state': text }));
    expect(state === undefined ? '' : formatInPlaceUpdateState(state)).toBe(text.replace(',"unknown":1', ''));
  });

  it.each<[string, string]>([
    ['not JSON', '{'],
    ['a wrong type', '{"revision":5}'],
    ['a bad time', '{"revision":"r","updateTimestamp":"yesterday"}'],
    ['a bad quantity', '{"nextContainerResources":{"c":{"limits":{"cpu":"lots"}}}}'],
    ['an array', '[]'],
  ])('tells a malformed annotation apart: %s', (_name, value) => {
    const pod = podWith({ 'apps.kruise.io/inplace-update-state': value });
    expect(stateAnnotation(pod).kind).toBe('malformed');
    expect(readInPlaceUpdateState(pod)).toBeUndefined();
  });

  it('reads null as the zero state, as Go does', () => {
    expect(readInPlaceUpdateState(podWith({ 'apps.kruise.io/inplace-update-state': 'null' }))).toEqual({
      revision: '',
      updateTimestamp: null,
      lastContainerStatuses: null,
    });
  });
});
