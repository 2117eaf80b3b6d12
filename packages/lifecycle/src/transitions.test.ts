import { describe, expect, it } from 'vitest';

import type { Lifecycle } from '@kruise-ts/api';

import { lifecyclePod } from '../test/fixtures/pods.ts';
import type { LifecyclePodFixture } from '../test/fixtures/pods.ts';
import {
  canCancelPreparingDelete,
  inPlaceUpdateStateDecision,
  preparingDeleteOutcome,
  preparingNormalOutcome,
  shouldPrepareDelete,
} from './transitions.ts';
import type { InPlaceUpdateStateDecision, InPlaceUpdateStep } from './transitions.ts';

const hookXY = { labelsHandler: { x: 'y' } };
const hooked: LifecyclePodFixture = { labels: { x: 'y' } };

describe('preparingNormalOutcome', () => {
  it.each([
    {
      case: 'no lifecycle, scheduled ⇒ Normal',
      lifecycle: undefined,
      pod: { state: 'PreparingNormal', node: 'n1' },
      expected: 'Normal',
    },
    {
      case: 'no lifecycle, not scheduled ⇒ stay',
      lifecycle: undefined,
      pod: { state: 'PreparingNormal' },
      expected: 'stay',
    },
    {
      case: 'lifecycle without preNormal, scheduled ⇒ Normal',
      lifecycle: { preDelete: hookXY },
      pod: { state: 'PreparingNormal', node: 'n1' },
      expected: 'Normal',
    },
    {
      case: 'preNormal all present, not scheduled ⇒ Normal',
      lifecycle: { preNormal: hookXY },
      pod: { state: 'PreparingNormal', ...hooked },
      expected: 'Normal',
    },
    {
      case: 'preNormal missing, scheduled ⇒ stay',
      lifecycle: { preNormal: hookXY },
      pod: { state: 'PreparingNormal', node: 'n1' },
      expected: 'stay',
    },
    {
      case: 'preNormal partly present ⇒ stay',
      lifecycle: { preNormal: { labelsHandler: { x: 'y', z: 'w' } } },
      pod: { state: 'PreparingNormal', node: 'n1', ...hooked },
      expected: 'stay',
    },
    {
      case: 'empty preNormal ⇒ Normal',
      lifecycle: { preNormal: {} },
      pod: { state: 'PreparingNormal' },
      expected: 'Normal',
    },
    {
      case: 'not PreparingNormal ⇒ stay',
      lifecycle: undefined,
      pod: { state: 'Normal', node: 'n1' },
      expected: 'stay',
    },
  ])('$case', ({ lifecycle, pod, expected }) => {
    expect(preparingNormalOutcome(lifecyclePod(pod), lifecycle)).toBe(expected);
  });
});

describe('PreparingDelete', () => {
  it.each([
    { case: 'no lifecycle', lifecycle: undefined, pod: hooked, prepare: false },
    { case: 'no preDelete', lifecycle: { inPlaceUpdate: hookXY }, pod: hooked, prepare: false },
    { case: 'preDelete, pod hooked', lifecycle: { preDelete: hookXY }, pod: hooked, prepare: true },
    { case: 'preDelete, pod not hooked', lifecycle: { preDelete: hookXY }, pod: {}, prepare: false },
    {
      case: 'preDelete finalizer on the pod',
      lifecycle: { preDelete: { finalizersHandler: ['f/hold'] } },
      pod: { finalizers: ['f/hold'] },
      prepare: true,
    },
  ])('$case: prepare $prepare', ({ lifecycle, pod, prepare }) => {
    const p = lifecyclePod({ state: 'PreparingDelete', ...pod });
    expect(shouldPrepareDelete(p, lifecycle)).toBe(prepare);
    // The same test decides when a PreparingDelete pod may go.
    expect(preparingDeleteOutcome(p, lifecycle)).toBe(prepare ? 'wait' : 'delete');
  });

  it.each([
    { lifecycle: undefined, expected: true },
    { lifecycle: { preDelete: hookXY }, expected: true },
    { lifecycle: { preDelete: { ...hookXY, markPodNotReady: false } }, expected: true },
    { lifecycle: { preDelete: { ...hookXY, markPodNotReady: true } }, expected: false },
    { lifecycle: { inPlaceUpdate: { ...hookXY, markPodNotReady: true } }, expected: false },
  ])('canCancelPreparingDelete($lifecycle) ⇒ $expected', ({ lifecycle, expected }) => {
    expect(canCancelPreparingDelete(lifecycle)).toBe(expected);
  });
});

const refresh = (atUpdateRevision: boolean, updateCompleted: boolean): InPlaceUpdateStep => ({
  step: 'refresh',
  atUpdateRevision,
  updateCompleted,
});
const none: InPlaceUpdateStateDecision = { action: 'none' };
const to = (state: string, markPodNotReady = false): InPlaceUpdateStateDecision =>
  ({ action: 'setState', state, markPodNotReady }) as InPlaceUpdateStateDecision;
const withHook: Lifecycle = { inPlaceUpdate: hookXY };
const marking: Lifecycle = { inPlaceUpdate: { ...hookXY, markPodNotReady: true } };

describe('inPlaceUpdateStateDecision: refresh', () => {
  it.each([
    {
      case: 'PreparingNormal scheduled ⇒ Normal',
      lifecycle: undefined,
      pod: { state: 'PreparingNormal', node: 'n' },
      step: refresh(false, false),
      expected: to('Normal'),
    },
    {
      case: 'PreparingNormal unscheduled ⇒ none',
      lifecycle: undefined,
      pod: { state: 'PreparingNormal' },
      step: refresh(false, false),
      expected: none,
    },
    {
      case: 'PreparingNormal ⇒ Normal, marking per inPlaceUpdate',
      lifecycle: marking,
      pod: { state: 'PreparingNormal', node: 'n' },
      step: refresh(false, false),
      expected: to('Normal', true),
    },
    {
      case: 'Normal ⇒ none',
      lifecycle: withHook,
      pod: { state: 'Normal', ...hooked },
      step: refresh(true, true),
      expected: none,
    },
    {
      case: 'PreparingUpdate, old revision ⇒ none',
      lifecycle: withHook,
      pod: { state: 'PreparingUpdate' },
      step: refresh(false, false),
      expected: none,
    },
    {
      case: 'PreparingUpdate rolled back, hook released ⇒ Updated',
      lifecycle: withHook,
      pod: { state: 'PreparingUpdate' },
      step: refresh(true, false),
      expected: to('Updated'),
    },
    {
      case: 'PreparingUpdate rolled back, hook back ⇒ Normal',
      lifecycle: withHook,
      pod: { state: 'PreparingUpdate', ...hooked },
      step: refresh(true, false),
      expected: to('Normal'),
    },
    {
      case: 'PreparingUpdate rolled back, no lifecycle ⇒ Normal',
      lifecycle: undefined,
      pod: { state: 'PreparingUpdate' },
      step: refresh(true, false),
      expected: to('Normal'),
    },
    {
      case: 'Updating, not complete ⇒ none',
      lifecycle: withHook,
      pod: { state: 'Updating' },
      step: refresh(true, false),
      expected: none,
    },
    {
      case: 'Updating complete, hook released ⇒ Updated (marking)',
      lifecycle: marking,
      pod: { state: 'Updating' },
      step: refresh(true, true),
      expected: to('Updated', true),
    },
    {
      case: 'Updating complete, hook back ⇒ Normal',
      lifecycle: withHook,
      pod: { state: 'Updating', ...hooked },
      step: refresh(true, true),
      expected: to('Normal'),
    },
    {
      case: 'Updating complete, no lifecycle ⇒ Normal',
      lifecycle: undefined,
      pod: { state: 'Updating' },
      step: refresh(true, true),
      expected: to('Normal'),
    },
    {
      case: 'Updating complete, lifecycle without inPlaceUpdate ⇒ Updated (upstream)',
      lifecycle: { preDelete: hookXY },
      pod: { state: 'Updating' },
      step: refresh(true, true),
      expected: to('Updated'),
    },
    {
      case: 'Updated, hook not back ⇒ none',
      lifecycle: withHook,
      pod: { state: 'Updated' },
      step: refresh(true, true),
      expected: none,
    },
    {
      case: 'Updated, hook back ⇒ Normal',
      lifecycle: withHook,
      pod: { state: 'Updated', ...hooked },
      step: refresh(true, true),
      expected: to('Normal'),
    },
    {
      case: 'Updated, no inPlaceUpdate hook ⇒ Normal',
      lifecycle: { preDelete: hookXY },
      pod: { state: 'Updated' },
      step: refresh(true, true),
      expected: to('Normal'),
    },
    {
      case: 'Updated, no lifecycle ⇒ Normal',
      lifecycle: undefined,
      pod: { state: 'Updated' },
      step: refresh(true, true),
      expected: to('Normal'),
    },
    {
      case: 'PreparingDelete ⇒ none',
      lifecycle: withHook,
      pod: { state: 'PreparingDelete' },
      step: refresh(true, true),
      expected: none,
    },
    { case: 'no state ⇒ none', lifecycle: withHook, pod: {}, step: refresh(true, true), expected: none },
  ])('$case', ({ lifecycle, pod, step, expected }) => {
    expect(inPlaceUpdateStateDecision(lifecyclePod(pod), lifecycle, step)).toEqual(expected);
  });
});

describe('inPlaceUpdateStateDecision: update', () => {
  const update: InPlaceUpdateStep = { step: 'update' };
  it.each([
    {
      case: 'Normal, hooked ⇒ PreparingUpdate',
      lifecycle: withHook,
      pod: { state: 'Normal', ...hooked },
      expected: to('PreparingUpdate'),
    },
    {
      case: 'Normal, hooked, marking ⇒ PreparingUpdate marked',
      lifecycle: marking,
      pod: { state: 'Normal', ...hooked },
      expected: to('PreparingUpdate', true),
    },
    {
      case: 'PreparingNormal, hooked ⇒ PreparingUpdate',
      lifecycle: withHook,
      pod: { state: 'PreparingNormal', ...hooked },
      expected: to('PreparingUpdate'),
    },
    { case: 'no state, hooked ⇒ PreparingUpdate', lifecycle: withHook, pod: hooked, expected: to('PreparingUpdate') },
    {
      case: 'Normal, not hooked ⇒ update',
      lifecycle: withHook,
      pod: { state: 'Normal' },
      expected: { action: 'updateInPlace' },
    },
    {
      case: 'Normal, no lifecycle ⇒ update',
      lifecycle: undefined,
      pod: { state: 'Normal' },
      expected: { action: 'updateInPlace' },
    },
    {
      case: 'PreparingUpdate, still hooked ⇒ wait',
      lifecycle: withHook,
      pod: { state: 'PreparingUpdate', ...hooked },
      expected: { action: 'wait' },
    },
    {
      case: 'PreparingUpdate, released ⇒ update',
      lifecycle: withHook,
      pod: { state: 'PreparingUpdate' },
      expected: { action: 'updateInPlace' },
    },
    {
      case: 'Updating ⇒ update again',
      lifecycle: withHook,
      pod: { state: 'Updating', ...hooked },
      expected: { action: 'updateInPlace' },
    },
    {
      case: 'Updated ⇒ PreparingUpdate with the hook put back',
      lifecycle: marking,
      pod: { state: 'Updated' },
      expected: {
        action: 'setState',
        state: 'PreparingUpdate',
        markPodNotReady: true,
        reapplyHook: marking.inPlaceUpdate,
      },
    },
    {
      case: 'Updated, no hook ⇒ wait (refresh makes it Normal first)',
      lifecycle: undefined,
      pod: { state: 'Updated' },
      expected: { action: 'wait' },
    },
  ])('$case', ({ lifecycle, pod, expected }) => {
    expect(inPlaceUpdateStateDecision(lifecyclePod(pod), lifecycle, update)).toEqual(expected);
  });

  it.each(['PreparingDelete', 'Bogus'])('refuses a pod in state %s', (state) => {
    expect(inPlaceUpdateStateDecision(lifecyclePod({ state }), withHook, update)).toEqual({
      action: 'refuse',
      reason: `not allowed to update pod web-abcde in place in lifecycle state ${state}`,
    });
  });
});
