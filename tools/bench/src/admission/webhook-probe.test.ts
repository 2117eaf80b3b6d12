import { describe, expect, it } from 'vitest';

import { ApiError } from '@kruise-ts/controller-runtime';

import { probeOutcome } from './webhook-probe.ts';

const WEBHOOK = 'vcloneset.kruise-ts.io';

describe('probeOutcome', () => {
  it('admitted without an error', () => {
    expect(probeOutcome(undefined, WEBHOOK)).toEqual({ verdict: 'admitted' });
  });

  it("denied when the API server names the webhook's refusal", () => {
    const error = new ApiError({
      code: 422,
      status: {
        message: `admission webhook "${WEBHOOK}" denied the request: spec.template.spec.containers[0].name: Invalid value: "Bad_Name"`,
      },
    });
    expect(probeOutcome(error, WEBHOOK)).toEqual({ verdict: 'denied' });
  });

  it.each([
    { name: 'another webhook', error: new Error('admission webhook "other.example.com" denied the request: no') },
    {
      name: 'the webhook failing (its configuration fails closed)',
      error: new Error(`failed calling webhook "${WEBHOOK}": connection refused`),
    },
    { name: 'not an Error', error: 'socket hang up' },
  ])('an error otherwise: $name', ({ error }) => {
    expect(probeOutcome(error, WEBHOOK)).toEqual({
      verdict: 'error',
      message: error instanceof Error ? error.message : JSON.stringify(error),
    });
  });
});
