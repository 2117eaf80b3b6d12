/**
 * Writes the CustomResourceDefinitions of every kind to /crds (run with `npm run crds:generate`). The
 * list of kinds and the rendering live in crd-files.ts, which the drift test uses too.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { CRDS_DIRECTORY, renderCrdFiles } from './crd-files.ts';

async function main(): Promise<void> {
  await mkdir(CRDS_DIRECTORY, { recursive: true });
  for (const file of renderCrdFiles()) {
    const target = path.join(CRDS_DIRECTORY, file.fileName);
    await writeFile(target, file.content);
    process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
  }
}

await main();
