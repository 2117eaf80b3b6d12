import { describe, expect, it } from 'vitest';

import { ApiError } from '@kruise-ts/controller-runtime';

import { dryRunOutcome } from './dry-run.ts';

const signal = new AbortController().signal;
const failing = (error: Error) => () => Promise.reject(error);

describe('dryRunOutcome', () => {
  it('accepts a dry run that went through', async () => {
    expect(await dryRunOutcome(() => Promise.resolve(), signal)).toEqual({ kind: 'accepted' });
  });

  it('accepts AlreadyExists: the object was validated before the store refused the name', async () => {
    const error = new ApiError({
      code: 409,
      status: { reason: 'AlreadyExists', message: 'pods "db-0" already exists', code: 409 },
    });
    expect(await dryRunOutcome(failing(error), signal)).toEqual({ kind: 'accepted' });
  });

  it('keeps the causes of an Invalid answer', async () => {
    const causes = [
      { reason: 'FieldValueInvalid', message: 'Invalid value: "Main"', field: 'spec.containers[0].name' },
    ];
    const error = new ApiError({
      code: 422,
      status: { reason: 'Invalid', message: 'Pod "x" is invalid', code: 422, details: { causes } },
    });
    expect(await dryRunOutcome(failing(error), signal)).toEqual({
      kind: 'invalid',
      causes,
      message: 'Pod "x" is invalid',
    });
  });

  it('names the field of an object the API server cannot decode', async () => {
    const message =
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.enableServiceLinks of type bool';
    const outcome = await dryRunOutcome(
      failing(new ApiError({ code: 400, status: { reason: 'BadRequest', message, code: 400 } })),
      signal,
    );
    expect(outcome).toMatchObject({ kind: 'invalid', causes: [{ field: 'spec.enableServiceLinks' }] });
  });

  it.each([
    [403, 'refused'],
    [500, 'unavailable'],
    [504, 'unavailable'],
    [409, 'unavailable'],
  ])('classifies HTTP %i as %s', async (code, kind) => {
    const outcome = await dryRunOutcome(failing(new ApiError({ code, status: { message: 'm', code } })), signal);
    expect(outcome.kind).toBe(kind);
  });

  it('classifies a network failure as unavailable and rethrows once the caller aborted', async () => {
    expect((await dryRunOutcome(failing(new TypeError('fetch failed')), signal)).kind).toBe('unavailable');
    const aborted = AbortSignal.abort();
    await expect(dryRunOutcome(failing(new Error('aborted')), aborted)).rejects.toThrow('aborted');
  });
});
