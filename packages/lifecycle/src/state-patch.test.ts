import { describe, expect, it } from 'vitest';

import { lifecycleStatePatch, lifecycleTimestamp } from './state-patch.ts';

const NOW = Date.parse('2026-01-02T07:04:05.678Z');

describe('lifecycleStatePatch', () => {
  it('sets the state label and a UTC RFC 3339 timestamp with second precision', () => {
    expect(lifecycleTimestamp(NOW)).toBe('2026-01-02T07:04:05Z');
    expect(lifecycleStatePatch({ state: 'PreparingDelete', now: NOW })).toEqual({
      metadata: {
        labels: { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' },
        annotations: { 'lifecycle.apps.kruise.io/timestamp': '2026-01-02T07:04:05Z' },
      },
    });
  });

  it('puts a hook back in the same patch', () => {
    const patch = lifecycleStatePatch({
      state: 'PreparingUpdate',
      now: NOW,
      reapplyHook: { labelsHandler: { x: 'y' }, finalizersHandler: ['f/hold'] },
    });
    expect(patch).toEqual({
      metadata: {
        labels: { 'lifecycle.apps.kruise.io/state': 'PreparingUpdate', x: 'y' },
        annotations: { 'lifecycle.apps.kruise.io/timestamp': '2026-01-02T07:04:05Z' },
        finalizers: ['f/hold'],
      },
    });
    expect(
      lifecycleStatePatch({ state: 'PreparingUpdate', now: NOW, reapplyHook: { labelsHandler: { x: 'y' } } }).metadata
        .finalizers,
    ).toBeUndefined();
  });
});
