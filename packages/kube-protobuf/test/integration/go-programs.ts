/** The package's Go programs, built into the binary cache and run from there. */
import { fileURLToPath } from 'node:url';

import { buildGoProgram as buildProgram } from '@kruise-ts/local-cluster/testing';

export { runGoProgram } from '@kruise-ts/local-cluster/testing';

const PROGRAMS = {
  goldenGo: { directory: '../golden-go/', binary: 'golden-go' },
  genWireTables: { directory: '../../tools/gen-wire-tables/', binary: 'gen-wire-tables' },
} as const;

/** One of the package's Go programs. */
export type GoProgram = keyof typeof PROGRAMS;

/** Builds the program when its sources changed; returns its path. */
export async function buildGoProgram(program: GoProgram): Promise<string> {
  const { directory, binary } = PROGRAMS[program];
  return buildProgram({
    name: `kube-protobuf-${binary}`,
    moduleDir: fileURLToPath(new URL(directory, import.meta.url)),
    binary,
    logPrefix: 'kube-protobuf',
  });
}

/** A golden vector: the object in protobuf (the `k8s\0` envelope, base64) and the JSON of the same object. */
export interface GoldenVector {
  readonly name: string;
  readonly protobuf: string;
  readonly json: string;
}
