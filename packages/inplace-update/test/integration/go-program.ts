/** The package's Go golden program (test/golden-go), built into the binary cache and run from there. */
import { fileURLToPath } from 'node:url';

import { buildGoProgram, runGoProgram } from '@kruise-ts/local-cluster/testing';

/** Builds the golden program when its sources changed; returns its path. */
export async function buildGoldenProgram(): Promise<string> {
  return buildGoProgram({
    name: 'inplace-update-golden-go',
    moduleDir: fileURLToPath(new URL('../golden-go/', import.meta.url)),
    binary: 'golden-go',
    logPrefix: 'inplace-update',
  });
}

/** Runs the built program with `stdin` and returns its standard output. */
export async function runGoldenProgram(binaryPath: string, stdin: string): Promise<string> {
  return runGoProgram(binaryPath, stdin);
}
