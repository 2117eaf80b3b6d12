import type { PodTemplateSpec } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';

import { marshalGoJson } from './go-json.ts';
import { revisionData, templateFromRevision } from './revision-data.ts';
import { TemplateDecodeError } from './typed-round-trip.ts';

const template = (value: unknown): PodTemplateSpec => value as PodTemplateSpec;
const wrap = (inner: string): string => `{"spec":{"template":{"$patch":"replace",${inner}}}}`;

describe('revisionData', () => {
  it.each<[string, unknown, string]>([
    [
      "the seed's sample template",
      { metadata: { labels: { app: 'sample' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] } },
      wrap(
        '"metadata":{"creationTimestamp":null,"labels":{"app":"sample"}},"spec":{"containers":[{"image":"nginx:alpine","name":"nginx","resources":{}}]}',
      ),
    ],
    ['an empty template', {}, wrap('"metadata":{"creationTimestamp":null},"spec":{"containers":null}')],
    [
      'non-omitempty zero values and pointers set to false',
      { spec: { containers: [{ ports: [{}] }], automountServiceAccountToken: false, hostNetwork: false } },
      wrap(
        '"metadata":{"creationTimestamp":null},"spec":{"automountServiceAccountToken":false,"containers":[{"name":"","ports":[{"containerPort":0}],"resources":{}}]}',
      ),
    ],
    [
      'HTML escaping and canonical quantities',
      {
        metadata: { annotations: { note: '<a & b>' } },
        spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1000m', memory: '1.5Gi' } } }] },
      },
      wrap(
        '"metadata":{"annotations":{"note":"\\u003ca \\u0026 b\\u003e"},"creationTimestamp":null},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"1536Mi"}}}]}',
      ),
    ],
    [
      'grpc without a service writes "service":null',
      { spec: { containers: [{ name: 'c', livenessProbe: { grpc: { port: 9000 } } }] } },
      wrap(
        '"metadata":{"creationTimestamp":null},"spec":{"containers":[{"livenessProbe":{"grpc":{"port":9000,"service":null}},"name":"c","resources":{}}]}',
      ),
    ],
  ])('%s', (_name, input, expected) => {
    expect(revisionData(template(input))).toBe(expected);
  });

  it('throws where Go would fail to decode', () => {
    expect(() => revisionData(template({ spec: { containers: [{ name: 7 }] } }))).toThrow(TemplateDecodeError);
    expect(() => revisionData(template({ spec: { containers: [{ name: 7 }] } }))).toThrow(
      'spec.containers[0].name: cannot unmarshal number into a Go string',
    );
  });
});

describe('templateFromRevision', () => {
  it('returns the stored template without $patch, as a copy', () => {
    const raw = revisionData(
      template({ metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }] } }),
    );
    const data = JSON.parse(raw) as unknown;
    const stored = templateFromRevision({ data });
    expect(stored).toEqual({
      metadata: { creationTimestamp: null, labels: { app: 'x' } },
      spec: { containers: [{ image: 'i', name: 'c', resources: {} }] },
    });
    const labels = stored.metadata?.labels ?? {};
    labels['app'] = 'changed';
    expect(marshalGoJson(data)).toBe(raw);
  });

  it('is a fixed point: the stored template produces the same data again', () => {
    const raw = revisionData(
      template({
        spec: {
          containers: [{ name: 'c', resources: { requests: { cpu: '0.5' } } }],
          terminationGracePeriodSeconds: 30,
        },
      }),
    );
    expect(revisionData(templateFromRevision({ data: JSON.parse(raw) as unknown }))).toBe(raw);
  });

  it.each<[string, unknown]>([
    ['no data', undefined],
    ['no spec', {}],
    ['a template that is not an object', { spec: { template: [] } }],
  ])('rejects a revision with %s', (_name, data) => {
    expect(() => templateFromRevision({ data })).toThrow(TypeError);
  });
});
