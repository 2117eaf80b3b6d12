import { describe, expect, it } from 'vitest';

import { GOLDEN_SAMPLE, sampleBytes } from '../test/golden-sample.ts';
import { bytes, envelope, field, int, tag } from '../test/wire-writer.ts';
import { DecodeError } from './decode-error.ts';
import { decodeObject, PROTOBUF_KINDS } from './index.ts';

function decodeError(input: Uint8Array, resource?: string): DecodeError {
  try {
    decodeObject(input, { resource });
  } catch (error) {
    if (error instanceof DecodeError) {
      return error;
    }
    throw error;
  }
  throw new Error('decoded');
}

describe('decodeObject', () => {
  it.each(GOLDEN_SAMPLE.map((vector) => [vector.name, vector] as const))(
    'decodes the Go sample %s as JSON has it',
    (_, vector) => {
      expect(decodeObject(Buffer.from(vector.protobuf, 'base64'))).toStrictEqual(JSON.parse(vector.json));
    },
  );

  it('puts kind and apiVersion first, as the API server JSON does', () => {
    expect(Object.keys(decodeObject(sampleBytes('pod: full'))).slice(0, 2)).toEqual(['kind', 'apiVersion']);
  });

  it('covers the kinds the controllers read', () => {
    expect(PROTOBUF_KINDS.map(([apiVersion, kind]) => `${apiVersion} ${kind}`)).toEqual(
      expect.arrayContaining([
        'v1 Pod',
        'v1 PodList',
        'v1 Node',
        'apps/v1 ControllerRevision',
        'v1 Status',
        'v1 EventList',
      ]),
    );
  });

  it('decodes empty raw bytes as the zero object, and fails on an envelope without them (an answer cut short)', () => {
    expect(decodeObject(envelope('v1', 'Namespace', []))).toStrictEqual({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: {},
      spec: {},
      status: {},
    });
    const input = bytes([0x6b, 0x38, 0x73, 0x00], field(1, bytes(field(1, 'v1'), field(2, 'Namespace'))));
    expect(decodeError(input).message).toContain('an envelope without the object');
  });

  it('skips the content type and encoding and unknown envelope fields', () => {
    const input = bytes(envelope('v1', 'Namespace', field(1, field(1, 'ns'))), field(3, ''), field(4, ''), int(9, 1));
    expect(decodeObject(input)).toMatchObject({ kind: 'Namespace', metadata: { name: 'ns' } });
  });

  it('fails on a missing or wrong magic, naming the resource', () => {
    expect(decodeError(Buffer.from('{"kind":"Pod"}'), 'pods default/web').message).toBe(
      'cannot decode envelope (pods default/web) at byte 0: not the k8s\\0 envelope of Kubernetes protobuf',
    );
    expect(decodeError(Uint8Array.from([0x6b, 0x38])).offset).toBe(0);
  });

  it('fails on a kind the tables do not cover', () => {
    const error = decodeError(envelope('apps.kruise.io/v1alpha1', 'CloneSet', []), 'clonesets');
    expect(error.message).toContain('kind "CloneSet" of "apps.kruise.io/v1alpha1", which the wire tables do not cover');
    expect(error.resource).toBe('clonesets');
  });

  it('fails on a wrong wire type for an envelope field', () => {
    expect(decodeError(bytes([0x6b, 0x38, 0x73, 0x00], int(2, 5))).message).toContain(
      'wire type 0 for field 2 of the envelope',
    );
  });

  it('names the innermost type and the byte offset of a truncated object', () => {
    const pod = sampleBytes('pod: full');
    // Cut inside the object: the error names a message type of the pod and an offset inside it.
    const error = decodeError(pod.subarray(0, pod.length - 3));
    expect(error.typeName).toBe('envelope');
    const inner = bytes(envelope('v1', 'Pod', field(2, bytes(tag(2, 2), [0x05, 0x61]))));
    const nested = decodeError(inner);
    expect(nested.typeName).toBe('core/v1.PodSpec');
    expect(nested.offset).toBeGreaterThan(4);
  });
});
