import { describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim } from '@kruise-ts/api';

import { deepHashJsonBytes } from './go-hash.ts';
import { parseGoType } from './go-struct-table.ts';
import { POD_TEMPLATE_STRUCTS } from './pod-template-fields.generated.ts';
import { marshalTypedGoJson } from './typed-marshal.ts';
import { encodeTyped } from './typed-round-trip.ts';
import { volumeClaimTemplatesHash } from './volume-claim-templates-hash.ts';

const data = (name: string, storage: string): PersistentVolumeClaim => ({
  metadata: { name, labels: { app: 'x' } },
  spec: { resources: { requests: { storage } }, accessModes: ['ReadWriteOnce'], storageClassName: 'standard' },
});

describe('marshalTypedGoJson', () => {
  it('writes struct fields in declaration order and map keys sorted', () => {
    const type = parseGoType('PersistentVolumeClaimSpec');
    const spec = encodeTyped(
      {
        storageClassName: 's',
        resources: { requests: { storage: '1Gi', cpu: '1000m' } },
        selector: { matchLabels: { b: '2', a: '1', '10': 'x', '9': 'y' } },
        accessModes: ['ReadWriteOnce'],
      },
      type,
      { table: POD_TEMPLATE_STRUCTS, path: '' },
    );
    expect(marshalTypedGoJson(spec, type, POD_TEMPLATE_STRUCTS)).toBe(
      '{"accessModes":["ReadWriteOnce"],"selector":{"matchLabels":{"10":"x","9":"y","a":"1","b":"2"}},"resources":{"requests":{"cpu":"1","storage":"1Gi"}},"storageClassName":"s"}',
    );
  });
});

describe('volumeClaimTemplatesHash', () => {
  it('is "" without templates', () => {
    expect(volumeClaimTemplatesHash([])).toBe('');
  });

  it('hashes {metadata:{name}, spec, status} in Go struct order, sorted by name', () => {
    const expectedJson =
      '[{"metadata":{"name":"a","creationTimestamp":null},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"2Gi"}},"storageClassName":"standard"},"status":{}},' +
      '{"metadata":{"name":"b","creationTimestamp":null},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"storageClassName":"standard"},"status":{}}]';
    expect(volumeClaimTemplatesHash([data('b', '1Gi'), data('a', '2Gi')])).toBe(
      String(deepHashJsonBytes(expectedJson)),
    );
  });

  it.each<{ name: string; left: PersistentVolumeClaim[]; right: PersistentVolumeClaim[]; equal: boolean }>([
    {
      name: 'order of templates',
      left: [data('a', '1Gi'), data('b', '1Gi')],
      right: [data('b', '1Gi'), data('a', '1Gi')],
      equal: true,
    },
    {
      name: 'template labels',
      left: [data('a', '1Gi')],
      right: [{ ...data('a', '1Gi'), metadata: { name: 'a' } }],
      equal: true,
    },
    { name: 'canonical quantity', left: [data('a', '1Gi')], right: [data('a', '1024Mi')], equal: true },
    { name: 'storage size', left: [data('a', '1Gi')], right: [data('a', '2Gi')], equal: false },
    { name: 'name', left: [data('a', '1Gi')], right: [data('c', '1Gi')], equal: false },
  ])('$name: equal hash = $equal', ({ left, right, equal }) => {
    expect(volumeClaimTemplatesHash(left) === volumeClaimTemplatesHash(right)).toBe(equal);
  });
});
