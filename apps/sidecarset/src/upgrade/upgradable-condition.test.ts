import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { upgradableCondition } from './upgradable-condition.ts';

const now = new Date('2026-01-02T03:04:05.678Z');

function pod(condition?: { status: string; reason: string; message: string; lastTransitionTime?: string }): Pod {
  return {
    metadata: { name: 'p' },
    status: {
      conditions:
        condition === undefined
          ? [{ type: 'Ready', status: 'True' }]
          : [{ type: 'SidecarSetUpgradable', ...condition }],
    },
  };
}

describe('upgradableCondition (OpenKruise updatePodSidecarSetUpgradableCondition)', () => {
  it('adds the condition with the SidecarSet in its message', () => {
    expect(upgradableCondition(pod(), { name: 'mesh', upgradable: true }, now)).toEqual({
      type: 'SidecarSetUpgradable',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: '2026-01-02T03:04:05Z',
      reason: 'AllSidecarsetUpgradable',
      message: '{"mesh":true}',
    });
    expect(upgradableCondition(pod(), { name: 'mesh', upgradable: false }, now)).toMatchObject({
      status: 'False',
      reason: 'UpdateImmutableField',
      message: '{"mesh":false}',
    });
  });

  it('is False while any SidecarSet cannot upgrade, with every SidecarSet in the message, keys sorted', () => {
    const current = pod({
      status: 'True',
      reason: 'AllSidecarsetUpgradable',
      message: '{"mesh":true}',
      lastTransitionTime: '2025-01-01T00:00:00Z',
    });
    expect(upgradableCondition(current, { name: 'log', upgradable: false }, now)).toMatchObject({
      status: 'False',
      reason: 'UpdateImmutableField',
      message: '{"log":false,"mesh":true}',
      lastTransitionTime: '2026-01-02T03:04:05Z',
    });
    const mixed = pod({
      status: 'False',
      reason: 'UpdateImmutableField',
      message: '{"log":false,"mesh":true}',
      lastTransitionTime: '2025-01-01T00:00:00Z',
    });
    expect(upgradableCondition(mixed, { name: 'log', upgradable: true }, now)).toMatchObject({
      status: 'True',
      reason: 'AllSidecarsetUpgradable',
      message: '{"log":true,"mesh":true}',
    });
  });

  it('keeps the transition time when only the message changes, and writes nothing when nothing changes', () => {
    const current = pod({
      status: 'True',
      reason: 'AllSidecarsetUpgradable',
      message: '{"mesh":true}',
      lastTransitionTime: '2025-01-01T00:00:00Z',
    });
    expect(upgradableCondition(current, { name: 'mesh', upgradable: true }, now)).toBeUndefined();
    expect(upgradableCondition(current, { name: 'log', upgradable: true }, now)).toMatchObject({
      message: '{"log":true,"mesh":true}',
      lastTransitionTime: '2025-01-01T00:00:00Z',
    });
  });

  it('starts afresh from a message that is not a JSON object', () => {
    expect(
      upgradableCondition(
        pod({ status: 'True', reason: 'x', message: 'not json' }),
        { name: 'mesh', upgradable: true },
        now,
      ),
    ).toMatchObject({ message: '{"mesh":true}' });
  });
});
