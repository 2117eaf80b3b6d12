import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { ApiError } from '@kruise-ts/controller-runtime';

import { TemplateValidator } from './template-validator.ts';
import type { ValidationTarget } from './template-validator.ts';

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-xxxxx', namespace: 'ns' },
  spec: { containers: [{ name: 'Main', image: 'nginx' }] },
};
const target = (extra: Partial<ValidationTarget> = {}): ValidationTarget => ({
  pod,
  podMapping: (field) => `spec.template.${field}`,
  claims: [],
  ...extra,
});
const invalid = new ApiError({
  code: 422,
  status: {
    reason: 'Invalid',
    message: 'Pod "web-xxxxx" is invalid',
    code: 422,
    details: {
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Main"', field: 'spec.containers[0].name' }],
    },
  },
});
const signal = new AbortController().signal;

function counting(answer: () => Promise<void>): { validator: TemplateValidator; calls: () => number } {
  let calls = 0;
  const run = (): Promise<void> => {
    calls += 1;
    return answer();
  };
  return { validator: new TemplateValidator({ dryRun: { createPod: run, createClaim: run } }), calls: () => calls };
}

describe('TemplateValidator', () => {
  it('maps the causes to the workload and answers the same target from its cache', async () => {
    const { validator, calls } = counting(() => Promise.reject(invalid));
    const first = await validator.validate(target(), signal);
    expect(first).toEqual({
      kind: 'invalid',
      errors: [
        {
          field: 'spec.template.spec.containers[0].name',
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "Main"',
        },
      ],
      warnings: [],
    });
    expect(await validator.validate(target(), signal)).toEqual(first);
    expect(calls()).toBe(1);
    expect(validator.dryRuns).toBe(1);
  });

  it('dry-runs the same target object again once its verdict aged out', async () => {
    let now = 0;
    let calls = 0;
    const run = (): Promise<void> => {
      calls += 1;
      return Promise.resolve();
    };
    const validator = new TemplateValidator({
      dryRun: { createPod: run, createClaim: run },
      ttlMs: 1000,
      now: () => now,
    });
    const same = target();
    await validator.validate(same, signal);
    await validator.validate(same, signal);
    expect(calls).toBe(1);
    now = 1500;
    await validator.validate(same, signal);
    expect(calls).toBe(2);
  });

  it('never caches an unknown verdict (the API server could not answer)', async () => {
    const { validator, calls } = counting(() =>
      Promise.reject(new ApiError({ code: 503, status: { message: 'unavailable', code: 503 } })),
    );
    expect((await validator.validate(target(), signal)).kind).toBe('unknown');
    expect((await validator.validate(target(), signal)).kind).toBe('unknown');
    expect(calls()).toBe(2);
  });

  it('turns an admission refusal into a warning, unless the dry run ran elsewhere', async () => {
    const refused = new ApiError({
      code: 403,
      status: { message: 'pods "x" is forbidden: violates PodSecurity "restricted:latest"', code: 403 },
    });
    const { validator } = counting(() => Promise.reject(refused));
    const verdict = await validator.validate(target(), signal);
    expect(verdict).toEqual({
      kind: 'valid',
      warnings: [
        'a pod of this template would be refused: pods "x" is forbidden: violates PodSecurity "restricted:latest"',
      ],
    });
    const elsewhere = counting(() => Promise.reject(refused)).validator;
    expect(await elsewhere.validate(target({ warnOnRefusal: false }), signal)).toEqual({ kind: 'valid', warnings: [] });
  });

  it('drops the causes the target says are not the workload', async () => {
    const { validator } = counting(() => Promise.reject(invalid));
    expect(
      await validator.validate(
        target({ ignorePodCause: (cause) => cause.field === 'spec.containers[0].name' }),
        signal,
      ),
    ).toEqual({ kind: 'valid', warnings: [] });
  });
});
