import { inject } from 'vitest';

import { defaultCacheRoot, defaultToolSpecs, ensureTools } from '../index.ts';
import './provided-context.ts';

/**
 * The path of one tool of the local control plane's Go tools modules (`helm`, `kube`, `etcd`, `kwok`).
 *
 * When the run started its own cluster, the global setup provides every tool it built first. When
 * the tests run against an external cluster (`KRUISE_TS_KUBECONFIG`), that map is empty: the tool is
 * then taken from the same binary cache that `npm run cluster:build` fills, and built by `ensureTools`
 * only when missing (same cache key, same lock, so parallel test files build it once).
 */
export async function toolBinary(name: string): Promise<string> {
  const provided = inject('toolBinaries')[name];
  if (provided !== undefined) {
    return provided;
  }
  const specs = defaultToolSpecs().filter((spec) => spec.name === name);
  if (specs.length === 0) {
    throw new Error(
      `unknown tool ${JSON.stringify(name)}; the tools modules build ${defaultToolSpecs()
        .map((spec) => spec.name)
        .join(', ')}`,
    );
  }
  const log = (line: string): void => {
    process.stderr.write(`[local-cluster tools] ${line}\n`);
  };
  const built = await ensureTools({ cacheRoot: defaultCacheRoot(), specs, log });
  const tool = built.get(name);
  if (tool === undefined) {
    throw new Error(`ensureTools did not return ${name}`);
  }
  return tool.path;
}
