import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import type { CrdDefinition } from './custom-resource-definition.ts';
import { buildCustomResourceDefinition } from './custom-resource-definition.ts';
import { CrdSchemaError } from './openapi-schema.ts';

const widgetSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  spec: z.looseObject({ replicas: z.int32().default(1) }),
  status: z.looseObject({ replicas: z.int32() }).optional(),
});

const widget: CrdDefinition = {
  group: 'example.com',
  names: { kind: 'Widget', plural: 'widgets', singular: 'widget', shortNames: ['wg'], categories: ['all'] },
  scope: 'Cluster',
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: false,
      deprecated: true,
      deprecationWarning: 'use v1',
      schema: widgetSchema,
    },
    {
      name: 'v1',
      served: true,
      storage: true,
      schema: widgetSchema,
      subresources: {
        status: true,
        scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
      },
      additionalPrinterColumns: [{ name: 'REPLICAS', type: 'integer', jsonPath: '.spec.replicas', priority: 1 }],
    },
  ],
  conversion: { strategy: 'None' },
};

describe('buildCustomResourceDefinition conversion', () => {
  it('writes None with an explicit null webhook, which kubectl apply over a CRD that had one needs', () => {
    expect(buildCustomResourceDefinition(widget).spec.conversion).toEqual({ strategy: 'None', webhook: null });
  });

  it('writes a webhook behind a Service on port 443, ConversionReview v1', () => {
    const crd = buildCustomResourceDefinition({
      ...widget,
      conversion: { strategy: 'Webhook', service: { name: 'svc', namespace: 'ns', path: '/convert' } },
    });
    expect(crd.spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: { service: { name: 'svc', namespace: 'ns', path: '/convert', port: 443 } },
      },
    });
  });

  it('refuses a kind served in several versions that does not say how they convert', () => {
    const withoutConversion: CrdDefinition = {
      group: widget.group,
      names: widget.names,
      scope: widget.scope,
      versions: widget.versions,
    };
    expect(() => buildCustomResourceDefinition(withoutConversion)).toThrow(/must say how they are converted/);
  });
});

describe('buildCustomResourceDefinition', () => {
  it('builds names, scope, versions, subresources and columns from the definition', () => {
    const crd = buildCustomResourceDefinition(widget);
    expect(crd).toMatchObject({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        names: {
          kind: 'Widget',
          listKind: 'WidgetList',
          plural: 'widgets',
          singular: 'widget',
          shortNames: ['wg'],
          categories: ['all'],
        },
        scope: 'Cluster',
      },
    });
    const [beta, v1] = crd.spec.versions;
    expect(beta).toMatchObject({
      name: 'v1beta1',
      served: true,
      storage: false,
      deprecated: true,
      deprecationWarning: 'use v1',
    });
    expect(beta).not.toHaveProperty('subresources');
    expect(v1?.subresources).toEqual({
      status: {},
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
    });
    expect(v1?.additionalPrinterColumns).toEqual([
      { name: 'REPLICAS', type: 'integer', jsonPath: '.spec.replicas', priority: 1 },
    ]);
    expect(v1?.schema.openAPIV3Schema.properties?.['spec']?.properties?.['replicas']).toEqual({
      type: 'integer',
      format: 'int32',
      default: 1,
    });
  });

  it.each([
    { name: 'no storage version', storage: [false, false] },
    { name: 'two storage versions', storage: [true, true] },
  ])('refuses $name', ({ storage }) => {
    const versions = widget.versions.map((version, index) => ({ ...version, storage: storage[index] ?? false }));
    expect(() => buildCustomResourceDefinition({ ...widget, versions })).toThrow(
      'exactly one version must be the storage version',
    );
  });

  it('refuses a schema that is not structural', () => {
    const versions = [{ name: 'v1', served: true, storage: true, schema: z.looseObject({ when: z.date() }) }];
    expect(() => buildCustomResourceDefinition({ ...widget, versions })).toThrow(CrdSchemaError);
  });
});
