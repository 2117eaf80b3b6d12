import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { formatGraceSpec, graceAnnotation, parseGraceSpec } from './grace-spec.ts';
import type { UpdateSpec } from './update-spec.ts';

const SPEC: UpdateSpec = {
  revision: 'demo-2',
  containerImages: { main: 'nginx:1.27' },
  containerRefMetadata: { main: { labels: { track: 'canary' } } },
  containerResources: { main: { limits: { cpu: '500m' } } },
  metadataPatch: { labels: { extra: 'x' }, annotations: { gone: null } },
  updateEnvFromMetadata: true,
  graceSeconds: 5,
};

describe('the grace annotation', () => {
  it('is OpenKruise UpdateSpec JSON with the metadata patch as base64 bytes', () => {
    const text = formatGraceSpec(SPEC);
    const patch = Buffer.from('{"metadata":{"annotations":{"gone":null},"labels":{"extra":"x"}}}').toString('base64');
    expect(text).toBe(
      `{"revision":"demo-2","containerImages":{"main":"nginx:1.27"},"containerRefMetadata":{"main":{"creationTimestamp":null,"labels":{"track":"canary"}}},` +
        `"containerResources":{"main":{"limits":{"cpu":"500m"}}},"metaDataPatch":"${patch}","updateEnvFromMetadata":true,"graceSeconds":5}`,
    );
    expect(parseGraceSpec(text)).toEqual(SPEC);
  });

  it('leaves out empty fields', () => {
    const spec: UpdateSpec = {
      revision: 'r',
      containerImages: {},
      containerRefMetadata: {},
      containerResources: {},
      metadataPatch: undefined,
      updateEnvFromMetadata: false,
      graceSeconds: 0,
    };
    expect(formatGraceSpec(spec)).toBe('{"revision":"r"}');
    expect(parseGraceSpec('{"revision":"r"}')).toEqual(spec);
  });

  it.each<[string, string]>([
    ['bad base64', '{"revision":"r","metaDataPatch":"%%%"}'],
    ['base64 of no JSON', `{"revision":"r","metaDataPatch":"${Buffer.from('nope').toString('base64')}"}`],
    ['a fractional grace period', '{"revision":"r","graceSeconds":1.5}'],
  ])('rejects %s', (_name, text) => {
    expect(typeof parseGraceSpec(text)).toBe('string');
  });

  it('reads the new key, then the legacy one; an empty value is absent', () => {
    const pod = (annotations: Record<string, string>): Pod => ({ metadata: { annotations } });
    expect(graceAnnotation(pod({ 'inplace-update-grace': '{"revision":"old"}' }))).toMatchObject({
      kind: 'spec',
      spec: { revision: 'old' },
    });
    expect(graceAnnotation(pod({ 'apps.kruise.io/inplace-update-grace': '' })).kind).toBe('absent');
    expect(graceAnnotation(pod({ 'apps.kruise.io/inplace-update-grace': '{' })).kind).toBe('malformed');
  });
});
