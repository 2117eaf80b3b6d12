/** The PodList of realistic pods the micro-benchmarks decode: golden-go's `bench`, in protobuf (base64) and JSON. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface PodListVector {
  readonly protobuf: string;
  readonly json: string;
}

/** A list of `pods` pods, encoded by Kubernetes' own serializers (`go run` in test/golden-go). */
export async function goldenPodList(pods: number): Promise<PodListVector> {
  const { stdout } = await promisify(execFile)('go', ['run', '.', 'bench', String(pods)], {
    cwd: fileURLToPath(new URL('../golden-go/', import.meta.url)),
    env: { ...process.env, GOTOOLCHAIN: 'local' },
    maxBuffer: 1024 * 1024 * 1024,
  });
  const [vector] = JSON.parse(stdout) as PodListVector[];
  if (vector === undefined) {
    throw new Error('golden-go bench printed nothing');
  }
  return vector;
}
