/**
 * `npm run bench -- admission [--creates N] [--warmup N] [--runtime bundle|source] [--out FILE.json] [--work-dir DIR]`:
 * the latency the CloneSet validation webhook adds to CloneSet creates (see run-admission.ts). Writes
 * the JSON result and prints the Markdown tables; returns the exit code.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { BenchFlagError } from '../bench-flags.ts';
import { parseAdmissionFlags } from './flags.ts';
import { renderAdmissionMarkdown } from './report.ts';
import { runAdmission } from './run-admission.ts';

const log = (line: string): void => {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
};

export async function admissionMain(argv: readonly string[]): Promise<number> {
  let options;
  try {
    options = parseAdmissionFlags(argv, new Date().toISOString().replace(/[:.]/g, '-'));
  } catch (error) {
    if (!(error instanceof BenchFlagError)) {
      throw error;
    }
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  log(`admission: ${String(options.creates)} CloneSet creates per phase; work directory ${options.workDir}`);
  const result = await runAdmission(options, { command: `npm run bench -- admission ${argv.join(' ')}`.trim(), log });
  await mkdir(path.dirname(options.outFile), { recursive: true });
  await writeFile(options.outFile, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(renderAdmissionMarkdown(result));
  process.stdout.write(`\nwrote ${options.outFile}\n`);
  return 0;
}
