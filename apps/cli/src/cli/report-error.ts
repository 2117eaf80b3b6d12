/**
 * Turns whatever ended a command into kubectl's kind of message on stderr and an exit code:
 * `error: …` for our own refusals, `Error from server (Reason): …` for the API server's answers.
 */
import { ApiError } from '@kruise-ts/controller-runtime';
import { CommanderError } from 'commander';

import { UsageError } from './cli-errors.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './exit-codes.ts';
import type { ExitCode } from './exit-codes.ts';

export function reportError(error: unknown, io: CliIo): ExitCode {
  if (error instanceof CommanderError) {
    // Commander has printed its message already (help, or `error: unknown option …`).
    return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  }
  if (error instanceof UsageError) {
    io.stderr(`error: ${error.message}\n${error.hint === undefined ? '' : `hint: ${error.hint}\n`}`);
    return EXIT_USAGE;
  }
  if (error instanceof ApiError) {
    io.stderr(`Error from server (${error.reason}): ${error.message}\n`);
    return EXIT_FAILURE;
  }
  const refused = refusedConnection(error);
  if (refused !== undefined) {
    io.stderr(`The connection to the server ${refused} was refused - did you specify the right host or port?\n`);
    return EXIT_FAILURE;
  }
  io.stderr(errorLines(error));
  return EXIT_FAILURE;
}

/** The `host:port` of a refused connection anywhere in the error's causes (kubectl's message for it). */
function refusedConnection(error: unknown): string | undefined {
  if (!(error instanceof Error)) {
    return undefined;
  }
  const { code, address, port } = error as Error & { code?: unknown; address?: unknown; port?: unknown };
  if (code === 'ECONNREFUSED' && typeof address === 'string' && typeof port === 'number') {
    return `${address}:${String(port)}`;
  }
  return refusedConnection(error.cause);
}

/** `error: ` before each line of the message, and the causes a bare "fetch failed" hides. */
function errorLines(error: unknown): string {
  return describe(error)
    .split('\n')
    .map((line) => `error: ${line}\n`)
    .join('');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) {
    return String(error);
  }
  const cause = error.cause === undefined ? '' : describe(error.cause);
  // Our own wrappers repeat their cause's message; undici's "fetch failed" does not.
  return cause === '' || error.message.includes(cause) ? error.message : `${error.message}: ${cause}`;
}
