import { describe, expect, it } from 'vitest';

import { FeatureGateError } from '@kruise-ts/controller-runtime';

import { FeatureGates, featureGatesSchema, parseFeatureGates } from './feature-gates.ts';
import { FEATURE_GATE_NAMES, KNOWN_FEATURE_GATES } from './known-gates.ts';
import type { FeatureGateName } from './known-gates.ts';

const KNOWN = FEATURE_GATE_NAMES.join(', ');

function nonDefaults(gates: FeatureGates): Record<string, boolean> {
  return Object.fromEntries(gates.entries().filter(([name, value]) => value !== KNOWN_FEATURE_GATES[name].default));
}

describe('parseFeatureGates: valid input', () => {
  it('gives every default for the empty string', () => {
    const gates = parseFeatureGates('');
    for (const [name, value] of gates.entries()) {
      expect(value).toBe(KNOWN_FEATURE_GATES[name].default);
    }
    expect(gates.entries()).toHaveLength(40);
    expect(gates.toString()).toBe('');
    expect(gates.enabled('CloneSet')).toBe(true);
    expect(gates.enabled('AdvancedStatefulSet')).toBe(true);
  });

  it.each([
    { flag: 'CloneSetShortHash=true', expected: { CloneSetShortHash: true } },
    { flag: 'CloneSet=false,SidecarSet=true', expected: { CloneSet: false, SidecarSet: true } },
    {
      flag: '  CloneSetShortHash = true ,\tSidecarSet=true  ',
      expected: { CloneSetShortHash: true, SidecarSet: true },
    },
    { flag: 'CloneSetShortHash=true,', expected: { CloneSetShortHash: true } },
    { flag: ' , ,', expected: {} },
    { flag: 'CloneSet=true', expected: {} },
    { flag: 'CloneSetShortHash=true,CloneSetShortHash=false', expected: {} },
    { flag: 'ImagePullJobGate=true', expected: { ImagePullJobGate: true } },
  ])('parses $flag', ({ flag, expected }) => {
    expect(nonDefaults(parseFeatureGates(flag))).toEqual(expected);
  });
});

describe('parseFeatureGates: invalid input', () => {
  it.each([
    {
      flag: 'Foo=true',
      message: `invalid feature gates "Foo=true": unknown feature gate "Foo"; known gates: ${KNOWN}`,
    },
    {
      flag: 'cloneset=true',
      message: `invalid feature gates "cloneset=true": unknown feature gate "cloneset"; known gates: ${KNOWN}`,
    },
    {
      flag: 'CloneSet=yes',
      message: `invalid feature gates "CloneSet=yes": invalid value "yes" for feature gate "CloneSet": want true or false; known gates: ${KNOWN}`,
    },
    {
      flag: 'CloneSet=True',
      message: `invalid feature gates "CloneSet=True": invalid value "True" for feature gate "CloneSet": want true or false; known gates: ${KNOWN}`,
    },
    {
      flag: 'CloneSet=1',
      message: `invalid feature gates "CloneSet=1": invalid value "1" for feature gate "CloneSet": want true or false; known gates: ${KNOWN}`,
    },
    {
      flag: 'CloneSet=',
      message: `invalid feature gates "CloneSet=": invalid value "" for feature gate "CloneSet": want true or false; known gates: ${KNOWN}`,
    },
    {
      flag: 'CloneSet',
      message: `invalid feature gates "CloneSet": missing "=" in "CloneSet": want Name=true or Name=false; known gates: ${KNOWN}`,
    },
    {
      flag: 'Foo=true,CloneSet=maybe',
      message: `invalid feature gates "Foo=true,CloneSet=maybe": unknown feature gate "Foo"; invalid value "maybe" for feature gate "CloneSet": want true or false; known gates: ${KNOWN}`,
    },
  ])('rejects $flag', ({ flag, message }) => {
    expect(() => parseFeatureGates(flag)).toThrow(FeatureGateError);
    expect(() => parseFeatureGates(flag)).toThrow(message);
    try {
      parseFeatureGates(flag);
    } catch (error) {
      expect((error as Error).message).toBe(message);
    }
  });
});

describe('parseFeatureGates: OpenKruise dependency rules', () => {
  it.each<{ flag: string; off?: FeatureGateName[]; on?: FeatureGateName[] }>([
    {
      flag: 'PodWebhook=false',
      off: [
        'KruisePodReadinessGate',
        'PodUnavailableBudgetDeleteGate',
        'PodUnavailableBudgetUpdateGate',
        'WorkloadSpread',
        'SidecarSetPatchPodMetadataDefaultsAllowed',
        'EnhancedLivenessProbe',
        'EnablePodProbeMarkerOnServerless',
      ],
    },
    {
      flag: 'KruiseDaemon=false',
      off: [
        'PreDownloadImageForInPlaceUpdate',
        'DaemonWatchingPod',
        'InPlaceUpdateEnvFromMetadata',
        'PreDownloadImageForDaemonSetUpdate',
        'PodProbeMarkerGate',
        'SidecarTerminator',
        'ImagePullJobGate',
        'EnhancedLivenessProbe',
      ],
    },
    { flag: 'PreDownloadImageForInPlaceUpdate=true', on: ['PreDownloadImageForInPlaceUpdate', 'ImagePullJobGate'] },
    { flag: 'PreDownloadImageForDaemonSetUpdate=true', on: ['PreDownloadImageForDaemonSetUpdate', 'ImagePullJobGate'] },
    { flag: 'DeletionProtectionForCRDCascadingGate=false', off: ['DeletionProtectionForCRDCascadingGate'] },
    {
      flag: 'ResourcesDeletionProtection=true,DeletionProtectionForCRDCascadingGate=true',
      on: ['ResourcesDeletionProtection', 'DeletionProtectionForCRDCascadingGate'],
    },
    { flag: 'KruiseDaemon=false,PodWebhook=false', off: ['ImagePullJobGate', 'WorkloadSpread', 'DaemonWatchingPod'] },
  ])('$flag', ({ flag, off = [], on = [] }) => {
    const gates = parseFeatureGates(flag);
    for (const gate of off) {
      expect(gates.enabled(gate), gate).toBe(false);
    }
    for (const gate of on) {
      expect(gates.enabled(gate), gate).toBe(true);
    }
  });

  it('leaves ResourcesDeletionProtection dependants off by default', () => {
    expect(parseFeatureGates('').enabled('DeletionProtectionForCRDCascadingGate')).toBe(false);
  });

  it.each([
    {
      flag: 'PodWebhook=false,WorkloadSpread=true',
      message:
        'invalid feature gates "PodWebhook=false,WorkloadSpread=true": feature gate "WorkloadSpread" is set to true, but "PodWebhook=false" forces it to false',
    },
    {
      flag: 'KruiseDaemon=false,PreDownloadImageForInPlaceUpdate=true',
      message:
        'invalid feature gates "KruiseDaemon=false,PreDownloadImageForInPlaceUpdate=true": feature gate "PreDownloadImageForInPlaceUpdate" is set to true, but "KruiseDaemon=false" forces it to false',
    },
    {
      flag: 'KruiseDaemon=false,ImagePullJobGate=true',
      message:
        'invalid feature gates "KruiseDaemon=false,ImagePullJobGate=true": feature gate "ImagePullJobGate" is set to true, but "KruiseDaemon=false" forces it to false',
    },
    {
      flag: 'DeletionProtectionForCRDCascadingGate=true',
      message:
        'invalid feature gates "DeletionProtectionForCRDCascadingGate=true": feature gate "DeletionProtectionForCRDCascadingGate" is set to true, but "ResourcesDeletionProtection=false" forces it to false',
    },
    {
      flag: 'PreDownloadImageForInPlaceUpdate=true,ImagePullJobGate=false',
      message:
        'invalid feature gates "PreDownloadImageForInPlaceUpdate=true,ImagePullJobGate=false": feature gate "ImagePullJobGate" is set to false, but "PreDownloadImageForInPlaceUpdate=true" forces it to true',
    },
    {
      flag: 'PodWebhook=false,KruisePodReadinessGate=true,PodUnavailableBudgetDeleteGate=true',
      message:
        'invalid feature gates "PodWebhook=false,KruisePodReadinessGate=true,PodUnavailableBudgetDeleteGate=true": ' +
        'feature gate "KruisePodReadinessGate" is set to true, but "PodWebhook=false" forces it to false; ' +
        'feature gate "PodUnavailableBudgetDeleteGate" is set to true, but "PodWebhook=false" forces it to false',
    },
  ])('rejects the explicit conflict $flag, naming both gates', ({ flag, message }) => {
    expect(() => parseFeatureGates(flag)).toThrow(message);
    try {
      parseFeatureGates(flag);
    } catch (error) {
      expect(error).toBeInstanceOf(FeatureGateError);
      expect((error as FeatureGateError).message).toBe(message);
      expect((error as FeatureGateError).problems.every((problem) => problem.kind === 'conflict')).toBe(true);
    }
  });

  it('accepts explicit settings that agree with a rule', () => {
    expect(nonDefaults(parseFeatureGates('PodWebhook=false,WorkloadSpread=false'))).toMatchObject({
      PodWebhook: false,
      WorkloadSpread: false,
    });
    expect(
      parseFeatureGates('PreDownloadImageForInPlaceUpdate=true,ImagePullJobGate=true').enabled('ImagePullJobGate'),
    ).toBe(true);
  });
});

describe('FeatureGates.toString', () => {
  it.each([
    { flag: '', canonical: '' },
    { flag: 'SidecarSet=true, CloneSetShortHash=true', canonical: 'CloneSetShortHash=true,SidecarSet=true' },
    { flag: 'CloneSet=true,CloneSet=false', canonical: 'CloneSet=false' },
    {
      flag: 'PreDownloadImageForInPlaceUpdate=true',
      canonical: 'ImagePullJobGate=true,PreDownloadImageForInPlaceUpdate=true',
    },
    {
      flag: 'PodWebhook=false',
      canonical: 'PodUnavailableBudgetDeleteGate=false,PodWebhook=false,WorkloadSpread=false',
    },
    {
      flag: 'KruiseDaemon=false',
      canonical:
        'DaemonWatchingPod=false,InPlaceUpdateEnvFromMetadata=false,KruiseDaemon=false,PodProbeMarkerGate=false',
    },
  ])('$flag → "$canonical" and back', ({ flag, canonical }) => {
    const gates = parseFeatureGates(flag);
    expect(gates.toString()).toBe(canonical);
    const again = parseFeatureGates(gates.toString());
    expect(again.entries()).toEqual(gates.entries());
    expect(again.toString()).toBe(canonical);
  });
});

describe('featureGatesSchema', () => {
  it('turns a flag string into FeatureGates', () => {
    const result = featureGatesSchema.safeParse('SidecarSet=true');
    expect(result.success).toBe(true);
    expect(result.data).toBeInstanceOf(FeatureGates);
    expect(result.data?.enabled('SidecarSet')).toBe(true);
  });

  it('reports one issue per problem instead of throwing', () => {
    const result = featureGatesSchema.safeParse('Foo=true,CloneSet=nope,PodWebhook=false');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      `unknown feature gate "Foo"; known gates: ${KNOWN}`,
      `invalid value "nope" for feature gate "CloneSet": want true or false; known gates: ${KNOWN}`,
    ]);
  });

  it('reports dependency conflicts as issues', () => {
    const result = featureGatesSchema.safeParse('PodWebhook=false,WorkloadSpread=true');
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'feature gate "WorkloadSpread" is set to true, but "PodWebhook=false" forces it to false',
    ]);
  });

  it('rejects non-strings', () => {
    expect(featureGatesSchema.safeParse(42).success).toBe(false);
  });
});
