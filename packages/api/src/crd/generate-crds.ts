/**
 * Writes the CustomResourceDefinitions of every kind to /crds and to the Helm chart's files/crds (run
 * with `npm run crds:generate`). The list of kinds, the targets and the rendering live in
 * crd-files.ts, which the drift test uses too.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { CHART_CRDS_DIRECTORY, renderAllCrdFiles } from './crd-files.ts';

/** Removes chart copies of kinds that are no longer generated (the chart renders every file it has). */
async function removeStaleChartCopies(keep: ReadonlySet<string>): Promise<void> {
  const existing = await readdir(CHART_CRDS_DIRECTORY).catch(() => []);
  for (const name of existing.filter((entry) => entry.endsWith('.yaml') && !keep.has(entry))) {
    await rm(path.join(CHART_CRDS_DIRECTORY, name));
    process.stdout.write(`removed ${path.relative(process.cwd(), path.join(CHART_CRDS_DIRECTORY, name))}\n`);
  }
}

async function main(): Promise<void> {
  const files = renderAllCrdFiles();
  for (const file of files) {
    await mkdir(file.directory, { recursive: true });
    const target = path.join(file.directory, file.fileName);
    await writeFile(target, file.content);
    process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
  }
  await removeStaleChartCopies(
    new Set(files.filter((file) => file.directory === CHART_CRDS_DIRECTORY).map((file) => file.fileName)),
  );
}

await main();
