import { describe, expect, it } from 'vitest';
import pino from 'pino';

import { checkTemplate, mayCreatePods } from './controller-check.ts';
import type { TemplateVerdict, ValidationTarget } from './template-validator.ts';

interface Shape {
  readonly status?: { observedGeneration: number; replicas: number; updatedReplicas: number };
  readonly deleting?: boolean;
}
const at = (generation: number, replicas: number, shape: Shape = {}) => ({
  metadata: { generation, ...(shape.deleting === true ? { deletionTimestamp: '2026-11-25T00:00:00Z' } : {}) },
  spec: { replicas },
  ...(shape.status === undefined ? {} : { status: shape.status }),
});

describe('mayCreatePods', () => {
  it.each([
    ['a new workload (no status)', at(1, 3), true],
    ['a new generation', at(2, 3, { status: { observedGeneration: 1, replicas: 3, updatedReplicas: 3 } }), true],
    [
      'fewer pods than replicas',
      at(1, 3, { status: { observedGeneration: 1, replicas: 2, updatedReplicas: 2 } }),
      true,
    ],
    ['a rollout in progress', at(1, 3, { status: { observedGeneration: 1, replicas: 3, updatedReplicas: 1 } }), true],
    ['at rest', at(1, 3, { status: { observedGeneration: 1, replicas: 3, updatedReplicas: 3 } }), false],
    ['scaled to zero', at(2, 0), false],
    ['being deleted', at(2, 3, { deleting: true }), false],
  ])('%s: %s', (_name, workload, expected) => {
    expect(mayCreatePods(workload)).toBe(expected);
  });
});

describe('checkTemplate', () => {
  const logger = pino({ level: 'silent' });
  const target = (): ValidationTarget => ({
    pod: { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { containers: [] } },
    podMapping: (field) => field,
    claims: [],
  });
  const answering = (verdict: TemplateVerdict) => ({
    validate: () => Promise.resolve(verdict),
    signal: new AbortController().signal,
    logger,
  });
  const context = (verdict: TemplateVerdict) => ({
    validator: answering(verdict),
    signal: new AbortController().signal,
    logger,
  });

  it('names the fields of an invalid template and says no pod is made', async () => {
    const message = await checkTemplate(
      context({
        kind: 'invalid',
        errors: [{ field: 'spec.template.spec.containers[0].name', message: 'Invalid value: "Main"' }],
        warnings: [],
      }),
      { subject: 'CloneSet "web"', target },
    );
    expect(message).toBe(
      'CloneSet "web" is invalid: spec.template.spec.containers[0].name: Invalid value: "Main"; no pod is created from this template until it is fixed',
    );
  });

  it.each([
    ['valid', { kind: 'valid', warnings: [] }],
    ['unknown (the API server could not answer)', { kind: 'unknown', message: 'timeout' }],
  ] as const)('goes on when the verdict is %s', async (_name, verdict) => {
    expect(await checkTemplate(context(verdict), { subject: 'x', target })).toBeUndefined();
  });

  it('goes on when the target cannot be built', async () => {
    const throwing = (): ValidationTarget => {
      throw new Error('no');
    };
    expect(
      await checkTemplate(context({ kind: 'valid', warnings: [] }), { subject: 'x', target: throwing }),
    ).toBeUndefined();
  });

  it('builds the target once per source object (an object of the informer cache), again for a new one', async () => {
    let builds = 0;
    const seen: ValidationTarget[] = [];
    const counted = (): ValidationTarget => {
      builds += 1;
      return target();
    };
    const validator = {
      validate: (built: ValidationTarget) => {
        seen.push(built);
        return Promise.resolve<TemplateVerdict>({ kind: 'valid', warnings: [] });
      },
    };
    const checkContext = { validator, signal: new AbortController().signal, logger };
    const first = { metadata: { generation: 1 } };
    await checkTemplate(checkContext, { subject: 'x', target: counted, source: first });
    await checkTemplate(checkContext, { subject: 'x', target: counted, source: first });
    expect(builds).toBe(1);
    expect(seen[1]).toBe(seen[0]);
    await checkTemplate(checkContext, { subject: 'x', target: counted, source: { metadata: { generation: 2 } } });
    await checkTemplate(checkContext, { subject: 'x', target: counted });
    expect(builds).toBe(3);
  });
});
