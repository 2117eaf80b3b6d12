/**
 * How the benchmark starts our processes: as the image runs them (the bundles of `npm run build`, with
 * the chart's node flags and MALLOC_ARENA_MAX), or, for comparison, from the TypeScript sources with
 * Node.js's defaults (`npm run controllers`). Either way with the GC-on-signal hook of the heap figure.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { load as parseYaml } from 'js-yaml';
import { z } from 'zod';

import { PROCESS_ENTRIES, REPOSITORY_ROOT, temporaryBundles } from '@kruise-ts/bundle';

/** `bundle`: what the image runs; `source`: the TypeScript sources, Node.js's memory defaults. */
export type OurRuntime = 'bundle' | 'source';

const GC_HOOK_SOURCE = 'tools/bench/src/measure/gc-on-signal.ts';
const GC_HOOK_ENTRY = 'bench-gc-on-signal';

const chartValuesSchema = z.looseObject({ nodeFlags: z.array(z.string()), mallocArenaMax: z.number().int() });

/** How the chart runs every app container (charts/kruise-ts/values.yaml): node's flags and the environment. */
export async function chartProcessSettings(): Promise<{
  readonly nodeFlags: readonly string[];
  readonly environment: Readonly<Record<string, string>>;
}> {
  const values = chartValuesSchema.parse(
    parseYaml(await readFile(path.join(REPOSITORY_ROOT, 'charts', 'kruise-ts', 'values.yaml'), 'utf8')),
  );
  return { nodeFlags: values.nodeFlags, environment: { MALLOC_ARENA_MAX: String(values.mallocArenaMax) } };
}

/** The bundle's name of a source entrypoint (`apps/cloneset/src/main.ts` → `cloneset`). */
function bundleNameOf(entrypoint: string): string {
  const found = Object.entries(PROCESS_ENTRIES).find(([, source]) => source === entrypoint);
  if (found === undefined) {
    throw new Error(`${entrypoint} is not a process entry of @kruise-ts/bundle`);
  }
  return found[0];
}

/** A shell command prefix that runs `entrypoint` (a source path such as tools/launcher/src/cli.ts) the `runtime` way. */
export async function ourNodeCommand(runtime: OurRuntime, entrypoint: string): Promise<string> {
  const node = JSON.stringify(process.execPath);
  if (runtime === 'source') {
    return `${node} --expose-gc --import=${JSON.stringify(path.join(REPOSITORY_ROOT, GC_HOOK_SOURCE))} --conditions=@kruise-ts/source ${entrypoint}`;
  }
  const name = bundleNameOf(entrypoint);
  // Built once per benchmark run, with the GC hook.
  const files = await temporaryBundles({ [GC_HOOK_ENTRY]: GC_HOOK_SOURCE });
  const settings = await chartProcessSettings();
  const environment = Object.entries(settings.environment).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  const hook = files[GC_HOOK_ENTRY] ?? '';
  const bundle = files[name] ?? '';
  // `env`: the command follows `exec` in the contender's shell, which takes no assignments there.
  const flags = settings.nodeFlags.map((flag) => JSON.stringify(flag)).join(' ');
  return `env ${environment.join(' ')} ${node} ${flags} --expose-gc --import=${JSON.stringify(hook)} ${JSON.stringify(bundle)}`;
}
