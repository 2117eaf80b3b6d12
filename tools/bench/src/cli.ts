/**
 * npm run bench -- <scale|inplace|recreate|steady|asts-inplace|asts-recreate|sidecarset-scale|bcj-nodes> [--pods N | --nodes N] [--contender kruise-ts|kruise-ts-per-app|native|openkruise|<name>=<command>]...
 *   [--openkruise-manager PATH] [--openkruise-source DIR]   (kruise-manager and its checkout for --contender openkruise)
 * npm run bench -- admission [--creates N] [--out FILE.json]   (the CloneSet webhook's admission latency: src/admission/)
 *
 * Every contender runs on a fresh local control plane with the same settings; the result is written
 * as JSON, Markdown and SVG under --out (bench-results/ by default). See tools/bench/README.md.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { BenchFlagError, parseBenchCommand } from './bench-flags.ts';
import { runBench } from './run/run-bench.ts';

const argv = process.argv.slice(2);
if (argv[0] === 'admission') {
  // Not a scenario: no contenders, no rollout, a loop of creates timed one by one.
  const { admissionMain } = await import('./admission/main.ts');
  process.exit(await admissionMain(argv.slice(1)));
}
let command;
try {
  command = parseBenchCommand(argv);
} catch (error) {
  if (error instanceof BenchFlagError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
const log = (line: string): void => {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
};
log(
  `${command.settings.scenario}: ${String(command.settings.pods)} pods, contenders ${command.contenders.map((contender) => contender.name).join(', ')}`,
);
const output = await runBench({
  ...command,
  outDir: path.resolve(command.outDir),
  command: `npm run bench -- ${argv.join(' ')}`,
  log,
});
process.stdout.write(await readFile(output.markdownFile, 'utf8'));
process.stdout.write(`\nwrote ${output.jsonFile}\n      ${output.markdownFile}\n      ${output.svgFile}\n`);
const failed = output.result.results.filter((result) => !result.completed);
process.exit(failed.length === 0 ? 0 : 1);
