/** The JSON rules of the decoder, on hand-made messages (field numbers from k8s.io/api generated.proto). */
import { describe, expect, it } from 'vitest';

import { bytes, envelope, field, int, tag, varint } from '../test/wire-writer.ts';
import type { Part } from '../test/wire-writer.ts';
import { decodeObject } from './index.ts';

// core/v1 Pod {metadata=1, spec=2, status=3}; PodSpec {containers=2, nodeSelector=7, priority=25};
// Container {name=1, ports=6}; ContainerPort {containerPort=3, hostIP=5}; PodStatus {hostIP=5,
// containerStatuses=8}; ContainerStatus {name=1, ready=4, restartCount=5, started=9};
// ObjectMeta {name=1, labels=11, creationTimestamp=8}; PodSecurityContext {supplementalGroups=4}.
function pod(...parts: readonly Part[]): Record<string, unknown> {
  return decodeObject(envelope('v1', 'Pod', bytes(...parts)));
}

const noSpec = { containers: null };

describe('the JSON shape of decoded messages', () => {
  it('writes the zero objects and nulls Go writes for an empty pod', () => {
    expect(pod()).toStrictEqual({ kind: 'Pod', apiVersion: 'v1', metadata: {}, spec: noSpec, status: {} });
  });

  it('builds plain objects (prototype Object.prototype), as JSON.parse does, for messages of every depth', () => {
    const decoded = pod(field(2, field(2, bytes(field(1, 'c'), field(6, int(3, 80))))));
    const spec = decoded['spec'] as { containers: { ports: object[] }[] };
    const [container] = spec.containers;
    for (const object of [decoded, spec, container, container?.ports[0]]) {
      expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    }
  });

  it('leaves out omitempty zeros, keeps non-omitempty ones and set pointers', () => {
    const status = field(8, bytes(field(1, ''), int(4, false), int(5, 0), int(9, false)));
    expect(pod(field(3, bytes(field(5, ''), status)))['status']).toStrictEqual({
      containerStatuses: [
        { name: '', ready: false, restartCount: 0, started: false, image: '', imageID: '', state: {}, lastState: {} },
      ],
    });
  });

  it('fills the zero of a field absent from the wire (a newer or sparser encoder)', () => {
    expect(pod(field(3, field(8, [])))).toMatchObject({
      status: { containerStatuses: [{ name: '', ready: false, restartCount: 0 }] },
    });
  });

  it('reads maps, a missing value as its zero, and __proto__ as an own key', () => {
    const entries = [
      field(11, bytes(field(1, 'a'), field(2, '1'))),
      field(11, field(1, 'b')),
      field(11, bytes(field(1, '__proto__'), field(2, 'x'))),
    ];
    const labels = (pod(field(1, bytes(...entries)))['metadata'] as { labels: Record<string, unknown> }).labels;
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    expect(Object.entries(labels)).toEqual([
      ['a', '1'],
      ['b', ''],
      ['__proto__', 'x'],
    ]);
  });

  it('accepts packed and unpacked repeated numbers', () => {
    const unpacked = bytes(int(4, 1), int(4, -1));
    const packed = field(4, bytes(varint(2), varint(2n ** 53n + 1n)));
    const spec = pod(field(2, field(14, bytes(unpacked, packed))))['spec'] as { securityContext: unknown };
    expect(spec.securityContext).toStrictEqual({ supplementalGroups: [1, -1, 2, 9007199254740992] });
  });

  it('replaces a repeated scalar and merges a repeated message, as Go does', () => {
    const first = field(1, bytes(field(1, 'old'), field(11, bytes(field(1, 'a'), field(2, '1')))));
    const second = field(1, bytes(field(1, 'new'), field(11, bytes(field(1, 'b'), field(2, '2')))));
    expect(pod(first, second)['metadata']).toStrictEqual({ name: 'new', labels: { a: '1', b: '2' } });
    expect(pod(field(1, bytes(field(1, 'x'), field(1, ''))))['metadata']).toStrictEqual({});
  });

  it('skips unknown fields of every wire type, also with big field numbers', () => {
    const unknown = bytes(
      int(99, 2n ** 63n),
      field(1000, 'junk'),
      tag(536870911, 5),
      [1, 2, 3, 4],
      tag(77, 1),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    expect(pod(unknown, field(1, bytes(unknown, field(1, 'p'))))).toStrictEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'p' },
      spec: noSpec,
      status: {},
    });
  });

  it('fails on a wrong wire type for a known field, naming it', () => {
    expect(() => pod(field(1, int(1, 5)))).toThrow(
      'cannot decode meta/v1.ObjectMeta at byte 19: wire type 0 for field 1 (name)',
    );
  });

  it('omits a zero creationTimestamp (omitzero) and writes a zero Time elsewhere as null', () => {
    expect(pod(field(1, field(8, [])))['metadata']).toStrictEqual({});
    const condition = field(2, bytes(field(1, 'Ready'), field(2, 'True')));
    expect(pod(field(3, condition))['status']).toStrictEqual({
      conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: null }],
    });
  });
});

describe('the special types', () => {
  // PodCondition {lastProbeTime=3}; Timestamp {seconds=1, nanos=2}.
  function conditionTime(timestamp: Part): unknown {
    const status = pod(field(3, field(2, bytes(field(1, 'T'), field(3, timestamp)))))['status'] as {
      conditions: { lastProbeTime: unknown }[];
    };
    return status.conditions[0]?.lastProbeTime;
  }

  it.each([
    ['seconds', int(1, 1795935509), '2026-11-29T06:58:29Z'],
    ['nanos dropped, as Go drops them', bytes(int(1, 1795935509), int(2, 999999999)), '2026-11-29T06:58:29Z'],
    ['the epoch written explicitly', int(1, 0), '1970-01-01T00:00:00Z'],
    ['only nanos', int(2, 5), '1970-01-01T00:00:00Z'],
    ['an empty message: the zero time', [], null],
    ['seconds of Go zero time', int(1, -62135596800), null],
  ])('reads a Time: %s', (_, timestamp, expected) => {
    expect(conditionTime(timestamp)).toBe(expected);
  });

  it('fails on a Time a Date cannot hold', () => {
    expect(() => conditionTime(int(1, 2n ** 62n))).toThrow('out of range');
  });

  // core/v1 Event {eventTime=10 MicroTime}.
  function eventTime(timestamp: Part): unknown {
    return decodeObject(envelope('v1', 'Event', field(10, timestamp)))['eventTime'];
  }

  it.each([
    ['micros', bytes(int(1, 1795935509), int(2, 123456789)), '2026-11-29T06:58:29.123456Z'],
    [
      'negative nanos, truncated toward zero then normalised',
      bytes(int(1, 10), int(2, -1500)),
      '1970-01-01T00:00:09.999999Z',
    ],
    ['nanos beyond a second', bytes(int(1, 0), int(2, 1500000000)), '1970-01-01T00:00:01.500000Z'],
    ['an empty message', [], null],
  ])('reads a MicroTime: %s', (_, timestamp, expected) => {
    expect(eventTime(timestamp)).toBe(expected);
  });

  // Container {resources=8 {limits=1 map<string, Quantity>}, readinessProbe=11 {handler=1 {httpGet=2 {port=2}}}}.
  function container(...parts: readonly Part[]): Record<string, unknown> {
    const spec = pod(field(2, field(2, bytes(field(1, 'c'), ...parts))))['spec'] as {
      containers: Record<string, unknown>[];
    };
    return spec.containers[0] ?? {};
  }

  it('reads quantities as their string, a message without one as "0", and fails on an empty one', () => {
    const limits = (name: string, quantity: Part) => field(8, field(1, bytes(field(1, name), field(2, quantity))));
    expect(container(limits('cpu', field(1, '100m')), limits('memory', []))['resources']).toStrictEqual({
      limits: { cpu: '100m', memory: '0' },
    });
    expect(() => container(limits('cpu', field(1, '')))).toThrow('an empty quantity');
  });

  it.each([
    ['an int', bytes(int(1, 0), int(2, 8080)), 8080],
    ['a string', bytes(int(1, 1), field(3, 'http')), 'http'],
    ['a zero int', [], 0],
    ['an empty string', int(1, 1), ''],
  ])('reads an IntOrString: %s', (_, value, expected) => {
    const probe = container(field(11, field(1, field(2, field(2, value)))))['readinessProbe'];
    expect(probe).toMatchObject({ httpGet: { port: expected } });
  });

  it('fails on an IntOrString of a type Go cannot write', () => {
    expect(() => container(field(11, field(1, field(2, field(2, int(1, 2))))))).toThrow('IntOrString of type 2');
  });

  // apps/v1 ControllerRevision {data=2 RawExtension {raw=1}, revision=3}.
  it('parses RawExtension bytes as JSON, null without them, and fails on bytes that are not JSON', () => {
    const revision = (data: Part) => decodeObject(envelope('apps/v1', 'ControllerRevision', field(2, data)));
    expect(revision(field(1, '{"a":[1,"x",12345678901234567890]}'))['data']).toStrictEqual({
      a: JSON.parse('[1, "x", 12345678901234567890]') as unknown,
    });
    expect(revision([])['data']).toBeNull();
    expect(() => revision(field(1, '{'))).toThrow('raw bytes that are not JSON');
    expect(() => revision(field(1, ''))).toThrow('raw bytes that are not JSON');
  });
});
