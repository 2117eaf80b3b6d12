/** The few golden vectors checked in for the unit tests (test/fixtures/golden-sample.json, from golden-go `sample`). */
import { readFileSync } from 'node:fs';

export interface SampleVector {
  readonly name: string;
  readonly protobuf: string;
  readonly json: string;
}

export const GOLDEN_SAMPLE = JSON.parse(
  readFileSync(new URL('fixtures/golden-sample.json', import.meta.url), 'utf8'),
) as readonly SampleVector[];

/** A sample vector's protobuf bytes (the `k8s\0` envelope and the object). */
export function sampleBytes(name: string): Uint8Array {
  const vector = GOLDEN_SAMPLE.find((candidate) => candidate.name === name);
  if (vector === undefined) {
    throw new Error(`no sample vector ${name}`);
  }
  return Buffer.from(vector.protobuf, 'base64');
}
