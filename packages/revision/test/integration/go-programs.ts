/** The package's two Go programs, built into the binary cache and run from there. */
import { fileURLToPath } from 'node:url';

import { buildGoProgram as buildProgram } from '@kruise-ts/local-cluster/testing';

export { runGoProgram } from '@kruise-ts/local-cluster/testing';

const PROGRAMS = {
  goldenGo: { directory: '../golden-go/', binary: 'golden-go' },
  genFieldTable: { directory: '../../tools/gen-field-table/', binary: 'gen-field-table' },
} as const;

/** One of the package's Go programs. */
export type GoProgram = keyof typeof PROGRAMS;

/** Builds the program when its sources changed; returns its path. */
export async function buildGoProgram(program: GoProgram): Promise<string> {
  const { directory, binary } = PROGRAMS[program];
  return buildProgram({
    name: `revision-${binary}`,
    moduleDir: fileURLToPath(new URL(directory, import.meta.url)),
    binary,
    logPrefix: 'revision',
  });
}
