/** Field filters: compiled against the tables, skipped by the decoder, applied alike to objects from JSON. */
import { describe, expect, it } from 'vitest';

import { GOLDEN_SAMPLE, sampleBytes } from '../test/golden-sample.ts';
import { bytes, envelope, field, watchFrame } from '../test/wire-writer.ts';
import { applyFieldFilter, compileFieldFilter, DecodeError, decodeObject, decodeWatchEvent } from './index.ts';

const POD_PATHS = [
  'metadata.managedFields',
  'spec.tolerations',
  'spec.priority',
  'spec.containers[].imagePullPolicy',
  'spec.containers[].resources.limits',
  'spec.volumes[].projected',
  'spec.nodeSelector',
  'status.conditions[].lastProbeTime',
  'status.containerStatuses[].lastState',
  'status.hostIP',
];

function sampleJson(name: string): Record<string, unknown> {
  return JSON.parse(GOLDEN_SAMPLE.find((vector) => vector.name === name)?.json ?? '') as Record<string, unknown>;
}

describe('compileFieldFilter', () => {
  it.each([
    ['spec.nope', /unknown field path "spec.nope" \(core\/v1.PodSpec has no nope\)/],
    ['spec.containers[].nope', /unknown field path "spec.containers\[\].nope"/],
    ['spec.containers.image', /"spec.containers".*a list: write containers\[\]/],
    ['spec.nodeName[]', /"spec.nodeName\[\]".*not a list or map/],
    ['spec.nodeName.x', /core\/v1.PodSpec.nodeName has no fields below it/],
    ['spec.volumes[kube-api-access-*]', /not a field path/],
    ['spec..x', /not a field path/],
  ])('refuses %s, naming it', (path, message) => {
    expect(() => compileFieldFilter('Pod', [path])).toThrow(message);
  });

  it.each(['Nope', 'PodList', 'Status/x'])('refuses the kind %s', (kind) => {
    expect(() => compileFieldFilter(kind, [])).toThrow(/not one kind of the wire tables/);
  });

  it('names the kind by its name or apiVersion/kind', () => {
    expect(compileFieldFilter('apps/v1/ControllerRevision', ['data'])).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
    });
  });
});

describe('decoding with a filter', () => {
  const filter = compileFieldFilter('Pod', POD_PATHS);

  it('skips the fields, as applying the filter to the JSON drops them', () => {
    const decoded = decodeObject(sampleBytes('pod: full'), { filter });
    expect(decoded).toStrictEqual(applyFieldFilter(sampleJson('pod: full'), filter));
    const text = JSON.stringify(decoded);
    for (const name of ['managedFields', 'tolerations', 'lastProbeTime']) {
      expect(text).not.toContain(name);
    }
    expect(decoded['status']).not.toHaveProperty('hostIP');
  });

  it('filters the exact paths: init containers and inlined volume sources are not the containers', () => {
    const decoded = decodeObject(sampleBytes('pod: full'), { filter }) as { spec: Record<string, unknown[]> };
    const json = sampleJson('pod: full') as { spec: Record<string, unknown[]> };
    expect(decoded.spec['initContainers']).toStrictEqual(json.spec['initContainers']);
    expect(decoded.spec['volumes']?.map((volume) => Object.keys(volume as object))).toStrictEqual(
      json.spec['volumes']?.map((volume) => Object.keys(volume as object).filter((key) => key !== 'projected')),
    );
  });

  it('does not write the Go zero of a skipped field (a Time with lastProbeTime: null)', () => {
    const condition = bytes(field(1, 'Ready'), field(2, 'True'));
    const pod = envelope('v1', 'Pod', bytes(field(3, field(2, condition))));
    expect(decodeObject(pod)).toMatchObject({ status: { conditions: [{ lastProbeTime: null }] } });
    expect(decodeObject(pod, { filter })).toStrictEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {},
      spec: { containers: null },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: null }] },
    });
  });

  it("filters a list's items and a watch event's object, and leaves other kinds whole", () => {
    // PodList {items=2: Pod {status=3: PodStatus {hostIP=5}}}.
    const list = envelope('v1', 'PodList', bytes(field(1, []), field(2, field(3, field(5, '10.0.0.1')))));
    expect(decodeObject(list)).toMatchObject({ items: [{ status: { hostIP: '10.0.0.1' } }] });
    expect(decodeObject(list, { filter })).toMatchObject({ kind: 'PodList', items: [{ status: {} }] });
    const event = decodeWatchEvent(watchFrame('ADDED', sampleBytes('pod: full')).subarray(4), { filter });
    expect(event.object).toStrictEqual(decodeObject(sampleBytes('pod: full'), { filter }));
    expect(decodeObject(sampleBytes('status: not found'), { filter })).toStrictEqual(sampleJson('status: not found'));
    expect(decodeObject(sampleBytes('node: full'), { filter })).toStrictEqual(sampleJson('node: full'));
  });

  it('keeps only the named fields in keep mode, and the kind and apiVersion', () => {
    const keep = compileFieldFilter(
      'Node',
      ['metadata.name', 'metadata.labels', 'spec.taints', 'status.allocatable'],
      'keep',
    );
    const decoded = decodeObject(sampleBytes('node: full'), { filter: keep });
    expect(decoded).toStrictEqual(applyFieldFilter(sampleJson('node: full'), keep));
    expect(Object.keys(decoded)).toStrictEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(Object.keys(decoded['metadata'] as object).sort()).toStrictEqual(['labels', 'name']);
  });
});

describe('bad input with a filter', () => {
  it('a truncated object fails where it is cut, inside a skipped field too', () => {
    const filter = compileFieldFilter('Pod', POD_PATHS);
    const object = sampleBytes('pod: full');
    const whole = decodeObject(object, { filter });
    for (let length = 0; length < object.length; length++) {
      const cut = object.subarray(0, length);
      let decoded: unknown;
      try {
        decoded = decodeObject(cut, { filter });
      } catch (error) {
        expect(error, `cut at ${length}`).toBeInstanceOf(DecodeError);
        continue;
      }
      // Only dropping the envelope's empty trailing fields leaves a valid envelope, of the same object.
      expect(decoded, `cut at ${length}`).toStrictEqual(whole);
      expect(length).toBeGreaterThanOrEqual(object.length - 4);
    }
  });
});

describe('applyFieldFilter', () => {
  const filter = compileFieldFilter('Pod', POD_PATHS);

  it('does not change its input, and returns an object with nothing to drop itself', () => {
    const json = sampleJson('pod: full');
    const before = structuredClone(json);
    const filtered = applyFieldFilter(json, filter);
    expect(json).toStrictEqual(before);
    expect(filtered).not.toBe(json);
    expect(applyFieldFilter(filtered, filter)).toBe(filtered);
    expect(applyFieldFilter(decodeObject(sampleBytes('pod: full'), { filter }), filter)).toStrictEqual(filtered);
  });

  it('leaves values of other shapes (null, missing) as they are', () => {
    const pod = { metadata: null, spec: { containers: null, tolerations: [] }, status: 'odd' };
    expect(applyFieldFilter(pod, filter)).toStrictEqual({ metadata: null, spec: { containers: null }, status: 'odd' });
  });
});
