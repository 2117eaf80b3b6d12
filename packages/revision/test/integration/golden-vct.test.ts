/**
 * Golden vectors for the volumeClaimTemplates hash: OpenKruise's steps in Go (test/golden-go, mode
 * `vct`: decode, keep name and spec, sort, encoding/json of the typed list, FNV-1a over dump.ForHash)
 * against volumeClaimTemplatesHash, for the same JSON text.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim } from '@kruise-ts/api';

import { TemplateDecodeError, volumeClaimTemplatesHash } from '../../src/index.ts';
import { buildGoProgram, runGoProgram } from './go-programs.ts';

interface Case {
  readonly name: string;
  readonly templates: readonly unknown[];
  readonly goRejects?: boolean;
}

const pvc = (name: string, spec: object, extra: object = {}): object => ({ metadata: { name, ...extra }, spec });
const storage = (size: string): object => ({
  accessModes: ['ReadWriteOnce'],
  resources: { requests: { storage: size } },
});

const CASES: readonly Case[] = [
  { name: 'no templates', templates: [] },
  { name: 'one template', templates: [pvc('data', storage('1Gi'))] },
  { name: 'two templates out of order', templates: [pvc('logs', storage('2Gi')), pvc('data', storage('1Gi'))] },
  {
    name: 'labels, annotations and status are ignored',
    templates: [pvc('data', storage('1Gi'), { labels: { a: 'b' }, annotations: { x: 'y' } })],
  },
  {
    name: 'non-canonical quantities',
    templates: [pvc('data', { resources: { requests: { storage: '1024Mi' }, limits: { storage: '1.5Gi' } } })],
  },
  { name: 'numeric quantity', templates: [pvc('data', { resources: { requests: { storage: 1e9 } } })] },
  {
    name: 'selector with integer-like keys and expressions',
    templates: [
      pvc('data', {
        selector: {
          matchLabels: { b: '2', a: '1', '10': 'x', '9': 'y' },
          matchExpressions: [{ key: 'k', operator: 'In', values: ['v2', 'v1'] }],
        },
        ...storage('1Gi'),
      }),
    ],
  },
  {
    name: 'data sources (apiGroup is a pointer without omitempty)',
    templates: [
      pvc('data', {
        dataSource: { kind: 'VolumeSnapshot', name: 'snap' },
        dataSourceRef: {
          apiGroup: 'snapshot.storage.k8s.io',
          kind: 'VolumeSnapshot',
          name: 'snap',
          namespace: 'other',
        },
        ...storage('1Gi'),
      }),
    ],
  },
  {
    name: 'every scalar field',
    templates: [
      pvc('data', {
        ...storage('1Gi'),
        volumeName: 'pv-1',
        storageClassName: '',
        volumeMode: 'Block',
        volumeAttributesClassName: 'gold',
      }),
    ],
  },
  {
    name: 'unknown and wrong-case fields are dropped',
    templates: [pvc('data', { ...storage('1Gi'), StorageClassName: 'x', surprise: true })],
  },
  {
    name: 'HTML and unicode in names',
    templates: [
      pvc('<b>&', storage('1Gi')),
      pvc('\u00e9t\u00e9', storage('1Gi')),
      pvc('\u{1f680}', storage('1Gi')),
      pvc('\uffee', storage('1Gi')),
    ],
  },
  { name: 'duplicate names keep their order', templates: [pvc('data', storage('2Gi')), pvc('data', storage('1Gi'))] },
  { name: 'a template without a name or spec', templates: [{ metadata: {} }, {}] },
  {
    name: 'empty maps and lists',
    templates: [pvc('data', { accessModes: [], resources: { requests: {} }, selector: { matchLabels: {} } })],
  },
  {
    name: 'a string where an int is expected is rejected',
    templates: [pvc('data', { resources: { requests: { storage: true } } })],
    goRejects: true,
  },
];

let vectors: readonly { readonly hash: string; readonly error?: string }[] = [];

beforeAll(async () => {
  const binary = await buildGoProgram('goldenGo');
  vectors = JSON.parse(
    await runGoProgram(binary, JSON.stringify(CASES.map((entry) => entry.templates)), ['vct']),
  ) as typeof vectors;
}, 600_000);

describe('volumeClaimTemplatesHash matches OpenKruise', () => {
  it('has a vector for every case', () => {
    expect(vectors).toHaveLength(CASES.length);
  });

  it.each(CASES.map((entry, index) => ({ ...entry, index })))('$name', ({ templates, goRejects, index }) => {
    const vector = vectors[index];
    const parsed = JSON.parse(JSON.stringify(templates)) as PersistentVolumeClaim[];
    if (goRejects === true) {
      expect(vector?.error).toBeTypeOf('string');
      expect(() => volumeClaimTemplatesHash(parsed)).toThrow(TemplateDecodeError);
      return;
    }
    expect(vector?.error).toBeUndefined();
    expect(volumeClaimTemplatesHash(parsed)).toBe(vector?.hash);
  });
});
