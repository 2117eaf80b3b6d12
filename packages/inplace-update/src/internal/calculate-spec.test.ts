import { describe, expect, it } from 'vitest';

import type { PodTemplateSpec } from '@kruise-ts/api';

import { changedTemplate, mainContainer, revisionOf } from '../../test/fixtures/revisions.ts';
import { calculateInPlaceUpdateSpec } from './calculate-spec.ts';
import type { InPlaceUpdateGates } from './calculate-spec.ts';
import type { UpdateSpec } from './update-spec.ts';

const GATES: InPlaceUpdateGates = {
  verticalScaling: false,
  envFromMetadata: true,
  recreateOnVolumeClaimTemplatesChange: false,
};

/** Both containers with requests equal to limits: QoS class Guaranteed. */
function guaranteedTemplate(template: PodTemplateSpec): void {
  for (const container of template.spec?.containers ?? []) {
    container.resources = { requests: { cpu: '200m', memory: '128Mi' }, limits: { cpu: '200m', memory: '128Mi' } };
  }
}

interface Case {
  readonly name: string;
  readonly base?: (template: PodTemplateSpec) => void;
  readonly change: (template: PodTemplateSpec) => void;
  readonly gates?: Partial<InPlaceUpdateGates>;
  readonly expected: Partial<UpdateSpec> | RegExp;
}

const NO_CHANGE = {
  containerImages: {},
  containerRefMetadata: {},
  containerResources: {},
  metadataPatch: undefined,
  updateEnvFromMetadata: false,
};

const CASES: readonly Case[] = [
  { name: 'nothing changed', change: () => undefined, expected: NO_CHANGE },
  {
    name: 'image of the first container',
    change: (t) => {
      mainContainer(t).image = 'nginx:1.27';
    },
    expected: { ...NO_CHANGE, containerImages: { main: 'nginx:1.27' } },
  },
  {
    name: 'images of both containers',
    change: (t) => {
      mainContainer(t).image = 'nginx:1.27';
      const sidecar = t.spec?.containers[1];
      if (sidecar !== undefined) {
        sidecar.image = 'busybox:2';
      }
    },
    expected: { ...NO_CHANGE, containerImages: { main: 'nginx:1.27', sidecar: 'busybox:2' } },
  },
  {
    name: 'a plain label and annotation',
    change: (t) => {
      t.metadata = { labels: { app: 'demo', track: 'stable', extra: 'yes' }, annotations: {} };
    },
    expected: { ...NO_CHANGE, metadataPatch: { labels: { extra: 'yes' }, annotations: { note: null } } },
  },
  {
    name: 'a label an env var reads (env from metadata)',
    change: (t) => {
      t.metadata = { ...t.metadata, labels: { app: 'demo', track: 'canary' } };
    },
    expected: {
      ...NO_CHANGE,
      containerRefMetadata: { main: { labels: { track: 'canary' } } },
      updateEnvFromMetadata: true,
    },
  },
  {
    name: 'an annotation an env var reads, and a plain label',
    change: (t) => {
      t.metadata = { labels: { app: 'demo', track: 'stable', extra: 'x' }, annotations: { note: 'b' } };
    },
    expected: {
      ...NO_CHANGE,
      containerRefMetadata: { sidecar: { annotations: { note: 'b' } } },
      updateEnvFromMetadata: true,
      metadataPatch: { labels: { extra: 'x' } },
    },
  },
  {
    name: 'env from metadata with the gate off: a plain metadata patch',
    change: (t) => {
      t.metadata = { ...t.metadata, labels: { app: 'demo', track: 'canary' } };
    },
    gates: { envFromMetadata: false },
    expected: { ...NO_CHANGE, metadataPatch: { labels: { track: 'canary' } } },
  },
  {
    name: 'removing a label an env var reads is a plain metadata patch (as upstream)',
    change: (t) => {
      t.metadata = { ...t.metadata, labels: { app: 'demo' } };
    },
    expected: { ...NO_CHANGE, metadataPatch: { labels: { track: null } } },
  },
  {
    name: 'the first annotation of a template arrives as one map: no restart (as upstream)',
    change: (t) => {
      t.metadata = { labels: { app: 'demo', track: 'stable' }, annotations: { note: 'a', other: 'b' } };
    },
    expected: { ...NO_CHANGE, metadataPatch: { annotations: { other: 'b' } } },
  },
  {
    name: 'an env value',
    change: (t) => {
      mainContainer(t).env = [{ name: 'PLAIN', value: 'y' }];
    },
    expected: /^spec\.containers\[0\]\.env/,
  },
  {
    name: 'a container added',
    change: (t) => {
      t.spec?.containers.push({ name: 'third', image: 'x' });
    },
    expected: /^spec\.containers\[2\] added$/,
  },
  {
    name: 'a container removed',
    change: (t) => {
      t.spec?.containers.pop();
    },
    expected: /^spec\.containers\[1\] removed$/,
  },
  {
    name: 'containers reordered',
    change: (t) => {
      t.spec?.containers.reverse();
    },
    expected: /^spec\.containers\[0\]\./,
  },
  {
    name: 'an init container image',
    change: (t) => {
      if (t.spec !== undefined) {
        t.spec.initContainers = [{ name: 'init', image: 'x' }];
      }
    },
    expected: /^spec\.initContainers added$/,
  },
  {
    name: 'a cpu limit without vertical scaling',
    change: (t) => {
      mainContainer(t).resources = {
        requests: { cpu: '100m', memory: '64Mi' },
        limits: { cpu: '300m', memory: '128Mi' },
      };
    },
    expected: /^spec\.containers\[0\]\.resources\.limits\.cpu changed \(in-place vertical scaling is off\)$/,
  },
  {
    name: 'cpu and memory with vertical scaling',
    change: (t) => {
      mainContainer(t).resources = {
        requests: { cpu: '150m', memory: '64Mi' },
        limits: { cpu: '300m', memory: '256Mi' },
      };
    },
    gates: { verticalScaling: true },
    expected: {
      ...NO_CHANGE,
      containerResources: { main: { requests: { cpu: '150m' }, limits: { cpu: '300m', memory: '256Mi' } } },
    },
  },
  {
    name: 'an added resource with vertical scaling',
    change: (t) => {
      mainContainer(t).resources = {
        requests: { cpu: '100m', memory: '64Mi', 'ephemeral-storage': '1Gi' },
        limits: { cpu: '200m', memory: '128Mi' },
      };
    },
    gates: { verticalScaling: true },
    expected: /^spec\.containers\[0\]\.resources\.requests\.ephemeral-storage added/,
  },
  {
    name: 'a removed resource with vertical scaling',
    change: (t) => {
      mainContainer(t).resources = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m' } };
    },
    gates: { verticalScaling: true },
    expected: /^spec\.containers\[0\]\.resources\.limits\.memory removed/,
  },
  {
    name: 'a QoS class change (Guaranteed → Burstable) with vertical scaling',
    base: guaranteedTemplate,
    change: (t) => {
      mainContainer(t).resources = {
        requests: { cpu: '200m', memory: '128Mi' },
        limits: { cpu: '300m', memory: '128Mi' },
      };
    },
    gates: { verticalScaling: true },
    expected: /^the pod QoS class would change from Guaranteed to Burstable$/,
  },
  {
    name: 'a Guaranteed pod resized keeping its QoS class',
    base: guaranteedTemplate,
    change: (t) => {
      mainContainer(t).resources = {
        requests: { cpu: '300m', memory: '128Mi' },
        limits: { cpu: '300m', memory: '128Mi' },
      };
    },
    gates: { verticalScaling: true },
    expected: { ...NO_CHANGE, containerResources: { main: { requests: { cpu: '300m' }, limits: { cpu: '300m' } } } },
  },
  {
    name: 'image and resources together with vertical scaling',
    change: (t) => {
      mainContainer(t).image = 'nginx:1.27';
      mainContainer(t).resources = {
        requests: { cpu: '100m', memory: '64Mi' },
        limits: { cpu: '250m', memory: '128Mi' },
      };
    },
    gates: { verticalScaling: true },
    expected: {
      ...NO_CHANGE,
      containerImages: { main: 'nginx:1.27' },
      containerResources: { main: { limits: { cpu: '250m' } } },
    },
  },
  {
    name: 'a non-container spec field',
    change: (t) => {
      if (t.spec !== undefined) {
        t.spec.terminationGracePeriodSeconds = 5;
      }
    },
    expected: /^spec\.terminationGracePeriodSeconds added$/,
  },
];

describe('calculateInPlaceUpdateSpec', () => {
  it.each(CASES)('$name', ({ base, change, gates, expected }) => {
    const decision = calculateInPlaceUpdateSpec({
      oldRevision: revisionOf('demo-1', changedTemplate(base ?? (() => undefined))),
      newRevision: revisionOf(
        'demo-2',
        changedTemplate((template) => {
          base?.(template);
          change(template);
        }),
      ),
      gracePeriodSeconds: 0,
      inPlaceOnly: false,
      gates: { ...GATES, ...gates },
    });
    if (expected instanceof RegExp) {
      expect(decision.kind).toBe('recreate');
      expect(decision.kind === 'recreate' ? decision.reason : '').toMatch(expected);
    } else {
      expect(decision).toEqual({ kind: 'in-place', spec: { revision: 'demo-2', graceSeconds: 0, ...expected } });
    }
  });
});

describe('calculateInPlaceUpdateSpec: revisions', () => {
  const image = (t: PodTemplateSpec): void => {
    mainContainer(t).image = 'nginx:1.27';
  };
  const withHash = (hash: string): Record<string, string> => ({ 'kruise.io/cloneset-volumeclaimtemplate-hash': hash });

  const gate = { recreateOnVolumeClaimTemplatesChange: true };
  interface VolumeCase {
    readonly name: string;
    readonly before: Record<string, string> | undefined;
    readonly after: Record<string, string> | undefined;
    readonly gates: Partial<InPlaceUpdateGates>;
    readonly inPlaceOnly: boolean;
    readonly kind: string;
  }
  it.each<VolumeCase>([
    {
      name: 'different hashes with the gate',
      before: withHash('1'),
      after: withHash('2'),
      gates: gate,
      inPlaceOnly: false,
      kind: 'recreate',
    },
    {
      name: 'different hashes with the gate, InPlaceOnly',
      before: withHash('1'),
      after: withHash('2'),
      gates: gate,
      inPlaceOnly: true,
      kind: 'in-place',
    },
    {
      name: 'different hashes without the gate',
      before: withHash('1'),
      after: withHash('2'),
      gates: {},
      inPlaceOnly: false,
      kind: 'in-place',
    },
    {
      name: 'equal hashes with the gate',
      before: withHash('1'),
      after: withHash('1'),
      gates: gate,
      inPlaceOnly: false,
      kind: 'in-place',
    },
    {
      name: 'old revision without a hash',
      before: undefined,
      after: withHash('2'),
      gates: gate,
      inPlaceOnly: false,
      kind: 'in-place',
    },
    {
      name: 'new revision without a hash',
      before: withHash('1'),
      after: undefined,
      gates: gate,
      inPlaceOnly: false,
      kind: 'in-place',
    },
    {
      name: '"" against a hash',
      before: withHash(''),
      after: withHash('2'),
      gates: gate,
      inPlaceOnly: false,
      kind: 'recreate',
    },
  ])('volumeClaimTemplates: $name', ({ before, after, gates, inPlaceOnly, kind }) => {
    const decision = calculateInPlaceUpdateSpec({
      oldRevision: revisionOf(
        'demo-1',
        changedTemplate(() => undefined),
        before,
      ),
      newRevision: revisionOf('demo-2', changedTemplate(image), after),
      gracePeriodSeconds: 0,
      inPlaceOnly,
      gates: { ...GATES, ...gates },
    });
    expect(decision.kind).toBe(kind);
  });

  it('carries the grace period into the spec', () => {
    const decision = calculateInPlaceUpdateSpec({
      oldRevision: revisionOf(
        'demo-1',
        changedTemplate(() => undefined),
      ),
      newRevision: revisionOf('demo-2', changedTemplate(image)),
      gracePeriodSeconds: 7,
      inPlaceOnly: false,
      gates: GATES,
    });
    expect(decision).toMatchObject({
      kind: 'in-place',
      spec: { graceSeconds: 7, containerImages: { main: 'nginx:1.27' } },
    });
  });

  it('recreates when a revision holds no template', () => {
    const broken = { ...revisionOf('demo-2', changedTemplate(image)), data: { spec: {} } };
    const decision = calculateInPlaceUpdateSpec({
      oldRevision: revisionOf(
        'demo-1',
        changedTemplate(() => undefined),
      ),
      newRevision: broken,
      gracePeriodSeconds: 0,
      inPlaceOnly: false,
      gates: GATES,
    });
    expect(decision).toEqual({
      kind: 'recreate',
      reason: expect.stringMatching(/^revision demo-2 holds no pod template/) as unknown,
    });
  });
});
