import { ApiError } from '@kruise-ts/controller-runtime';
import { describe, expect, it } from 'vitest';

import { UsageError } from './cli-errors.ts';
import type { CliIo } from './cli-io.ts';
import { reportError } from './report-error.ts';

function refused(address: string, port: number): Error {
  return Object.assign(new Error(`connect ECONNREFUSED ${address}:${String(port)}`), {
    code: 'ECONNREFUSED',
    address,
    port,
  });
}

function report(error: unknown): [number, string] {
  let written = '';
  const io: CliIo = {
    stdout: () => undefined,
    stderr: (text) => (written += text),
    env: {},
    programName: 'kruise-ts',
    now: () => new Date(0),
  };
  return [reportError(error, io), written];
}

describe('reportError', () => {
  it.each<{ name: string; error: unknown; expected: [number, string] }>([
    {
      name: 'a usage error, with its hint',
      error: new UsageError('unknown resource type "foo"', 'try clone/web'),
      expected: [2, 'error: unknown resource type "foo"\nhint: try clone/web\n'],
    },
    {
      name: "the API server's Status",
      error: new ApiError({
        code: 404,
        status: { kind: 'Status', reason: 'NotFound', message: 'clonesets.apps.kruise.io "web" not found', code: 404 },
      }),
      expected: [1, 'Error from server (NotFound): clonesets.apps.kruise.io "web" not found\n'],
    },
    {
      name: 'a refused connection, as kubectl says it',
      error: refused('127.0.0.1', 6443),
      expected: [
        1,
        'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n',
      ],
    },
    {
      name: 'a refused connection under a wrapper (undici)',
      error: new Error('fetch failed', { cause: refused('10.0.0.1', 443) }),
      expected: [
        1,
        'The connection to the server 10.0.0.1:443 was refused - did you specify the right host or port?\n',
      ],
    },
    {
      name: 'another error with the cause its message hides',
      error: new Error('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND kube.test') }),
      expected: [1, 'error: fetch failed: getaddrinfo ENOTFOUND kube.test\n'],
    },
    {
      name: 'a multi-line message, each line marked',
      error: new Error('first\nsecond'),
      expected: [1, 'error: first\nerror: second\n'],
    },
    { name: 'not an Error', error: 'plain', expected: [1, 'error: plain\n'] },
  ])('$name', ({ error, expected }) => {
    expect(report(error)).toEqual(expected);
  });
});
