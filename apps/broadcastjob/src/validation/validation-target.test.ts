import { describe, expect, it } from 'vitest';

import { broadcastJob } from '../../test/fixtures/reconcile-fixture.ts';
import { broadcastJobValidationTarget } from './validation-target.ts';

const PLACEHOLDER_UID = '00000000-0000-0000-0000-000000000000';

describe('broadcastJobValidationTarget', () => {
  const job = broadcastJob({ name: 'job', uid: 'b0e2f6a4-1d7c-4c1e-9a53-6f0d2c3e4b5a' });
  const target = broadcastJobValidationTarget(job, { assignPodsByScheduler: true });

  it('is the pod the controller makes for a node, without owner references or claims', () => {
    const { metadata, spec } = target.pod;
    expect(metadata?.generateName).toBe('job-');
    expect(metadata?.namespace).toBe('ns');
    expect(metadata?.ownerReferences).toBeUndefined();
    expect(metadata?.labels).toEqual({
      app: 'job',
      'broadcastjob-name': 'job',
      'broadcastjob-controller-uid': PLACEHOLDER_UID,
    });
    expect(spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual({
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node'] }] }],
    });
    expect(spec?.containers).toEqual([{ name: 'work', image: 'busybox:1.36' }]);
    expect(target.claims).toEqual([]);
  });

  it('has a uid of the real length, the same with or without one (the webhook sees none on create)', () => {
    expect(PLACEHOLDER_UID).toHaveLength(36);
    expect(broadcastJobValidationTarget(broadcastJob({ name: 'job' }), { assignPodsByScheduler: true }).pod).toEqual(
      target.pod,
    );
  });

  it('binds by spec.nodeName when pods are not assigned by the scheduler', () => {
    const spec = broadcastJobValidationTarget(job, { assignPodsByScheduler: false }).pod.spec;
    expect(spec?.nodeName).toBe('node');
    expect(spec?.affinity).toBeUndefined();
  });

  it.each([
    ['spec.containers[0].name', 'spec.template.spec.containers[0].name'],
    ['metadata.labels', 'spec.template.metadata.labels'],
    ['metadata.annotations', 'spec.template.metadata.annotations'],
    ['metadata.generateName', 'metadata.name'],
    ['spec.volumes[0].name', 'spec.template.spec.volumes[0].name'],
  ])('maps the pod field %s to the job field %s', (field, mapped) => {
    expect(target.podMapping(field)).toBe(mapped);
  });
});
