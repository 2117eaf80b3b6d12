import { describe, expect, it } from 'vitest';

import { UsageError } from '../cli/cli-errors.ts';
import { objectDisplayName, preferredSpelling, resolveKind } from './kinds.ts';
import { parseObjectRef, requireKind } from './object-ref.ts';

function usageErrorOf(call: () => unknown): UsageError {
  try {
    call();
  } catch (error) {
    if (error instanceof UsageError) {
      return error;
    }
  }
  throw new Error('no UsageError');
}

describe('resource spellings', () => {
  it.each([
    ['cloneset/web', 'cloneset', 'web'],
    ['clonesets/web', 'cloneset', 'web'],
    ['clone/web', 'cloneset', 'web'],
    ['CloneSet/web', 'cloneset', 'web'],
    ['cloneset.apps.kruise.io/web', 'cloneset', 'web'],
    ['clonesets.v1alpha1.apps.kruise.io/web', 'cloneset', 'web'],
    ['asts/db', 'advanced-statefulset', 'db'],
    ['statefulset.apps.kruise.io/db', 'advanced-statefulset', 'db'],
    ['statefulsets.v1beta1.apps.kruise.io/db', 'advanced-statefulset', 'db'],
    ['statefulset/db', 'native-statefulset', 'db'],
    ['sts/db', 'native-statefulset', 'db'],
    ['statefulset.apps/db', 'native-statefulset', 'db'],
    ['sidecarset/x', 'sidecarset', 'x'],
    ['sidecarsets.apps.kruise.io/x', 'sidecarset', 'x'],
    ['bcj/y', 'broadcastjob', 'y'],
    ['broadcastjob/y', 'broadcastjob', 'y'],
    ['deployment/web', 'deployment', 'web'],
    ['deploy/web', 'deployment', 'web'],
    ['deployments.apps/web', 'deployment', 'web'],
  ])('%s is a %s named %s', (arg, id, name) => {
    const ref = parseObjectRef([arg]);
    expect(ref.kind.id).toBe(id);
    expect(ref.name).toBe(name);
  });

  it('takes the TYPE NAME form too', () => {
    const ref = parseObjectRef(['clone', 'web']);
    expect([ref.kind.id, ref.name]).toEqual(['cloneset', 'web']);
  });

  it.each([
    [[], /you must specify the type of resource/],
    [['cloneset'], /no name was specified/],
    [['cloneset/'], /single resource and name/],
    [['/web'], /single resource and name/],
    [['cloneset/web/x'], /single resource and name/],
    [['cloneset/web', 'web2'], /one object at a time/],
    [['cloneset', 'a', 'b'], /one object at a time/],
    [['widget/web'], /"widget" is not one kruise-ts knows/],
    [['cloneset.apps/web'], /"cloneset.apps" is not one kruise-ts knows/],
    [['asts.apps/db'], /is not one kruise-ts knows/],
  ])('refuses %j', (args, message) => {
    expect(() => parseObjectRef(args)).toThrow(UsageError);
    expect(() => parseObjectRef(args)).toThrow(message);
  });

  it('lists the known types in the hint of an unknown one', () => {
    expect(usageErrorOf(() => parseObjectRef(['widget/web'])).hint).toBe(
      'known types: deployment (deploy), cloneset (clone), statefulset.apps.kruise.io (asts), sidecarset, broadcastjob (bcj)',
    );
  });

  it('prints objects as kubectl does', () => {
    expect(objectDisplayName(parseObjectRef(['clone/web']).kind, 'web')).toBe('cloneset.apps.kruise.io/web');
    expect(objectDisplayName(parseObjectRef(['asts/db']).kind, 'db')).toBe('statefulset.apps.kruise.io/db');
  });

  it('hints the unambiguous short names', () => {
    const spelling = (type: string): string | undefined => {
      const kind = resolveKind(type);
      return kind === undefined ? undefined : preferredSpelling(kind);
    };
    expect([
      spelling('clonesets'),
      spelling('asts'),
      spelling('sts'),
      spelling('sidecarsets'),
      spelling('bcj'),
    ]).toEqual(['clone', 'asts', 'sts', 'sidecarset', 'bcj']);
  });
});

describe('requireKind', () => {
  const supported = ['cloneset', 'advanced-statefulset'] as const;

  it('passes a kind the command works on', () => {
    const ref = parseObjectRef(['asts/db']);
    expect(requireKind(ref, 'rollout pause', supported)).toBe(ref);
  });

  it('refuses a native StatefulSet and shows how to name the Advanced one', () => {
    const error = usageErrorOf(() => requireKind(parseObjectRef(['statefulset/db']), 'rollout pause', supported));
    expect(error.message).toBe(
      'statefulset/db is a native StatefulSet (apps/v1), which rollout pause does not work on',
    );
    expect(error.hint).toBe('for an Advanced StatefulSet write asts/db or statefulset.apps.kruise.io/db');
  });

  it('refuses another kind, naming the ones it takes', () => {
    const error = usageErrorOf(() => requireKind(parseObjectRef(['bcj/y']), 'scale', supported));
    expect([error.message, error.hint]).toEqual([
      'scale does not work on broadcastjobs.apps.kruise.io',
      'it takes clone/NAME or asts/NAME',
    ]);
  });
});
