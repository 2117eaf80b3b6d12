import { describe, expect, it } from 'vitest';

import { statefulSetSchema } from './statefulset.ts';

const minimal = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  metadata: { name: 'web' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } },
  },
};

describe('statefulSetSchema', () => {
  it('applies the defaults the API server applies', () => {
    const spec = statefulSetSchema.parse(minimal).spec;
    expect(spec.replicas).toBe(1);
    expect(spec.podManagementPolicy).toBe('OrderedReady');
    expect(spec.revisionHistoryLimit).toBe(10);
    expect(spec.updateStrategy).toEqual({ type: 'RollingUpdate' });
  });

  it('defaults the fields of a rollingUpdate block that is there', () => {
    const spec = statefulSetSchema.parse({
      ...minimal,
      spec: { ...minimal.spec, updateStrategy: { rollingUpdate: { partition: 2 } } },
    }).spec;
    expect(spec.updateStrategy.rollingUpdate).toEqual({
      partition: 2,
      maxUnavailable: 1,
      podUpdatePolicy: 'ReCreate',
      minReadySeconds: 0,
    });
  });

  it('keeps OnDelete without a rollingUpdate block (the CRD refuses one with OnDelete)', () => {
    const spec = statefulSetSchema.parse({
      ...minimal,
      spec: { ...minimal.spec, updateStrategy: { type: 'OnDelete' } },
    }).spec;
    expect(spec.updateStrategy).toEqual({ type: 'OnDelete' });
  });

  it('keeps reserveOrdinals as written, ints and ranges', () => {
    const spec = statefulSetSchema.parse({ ...minimal, spec: { ...minimal.spec, reserveOrdinals: [1, '3-4'] } }).spec;
    expect(spec.reserveOrdinals).toEqual([1, '3-4']);
  });
});
