/**
 * `npm run test:app -- <name> [vitest options]`: the unit and integration tests of one app (apps/<name>),
 * or of one library or tool (packages/<name>, tools/<name>), in one vitest run. A folder filter rather
 * than a word: `vitest run cloneset` would also run every other file whose path contains the word.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOTS = ['apps', 'packages', 'tools'];
const [name, ...vitestArgs] = process.argv.slice(2);
const folder =
  name === undefined ? undefined : ROOTS.map((root) => path.join(root, name)).find((dir) => existsSync(dir));
if (folder === undefined) {
  const known = ROOTS.flatMap((root) => readdirSync(root).map((entry) => `${root}/${entry}`));
  process.stderr.write(
    `usage: npm run test:app -- <name> [vitest options]; <name> is one of:\n  ${known.join('\n  ')}\n`,
  );
  process.exit(2);
}
// npm scripts put node_modules/.bin first on PATH: this is the repository's vitest on its Node 24.
const run = spawnSync('vitest', ['run', `${folder}/`, ...vitestArgs], { stdio: 'inherit' });
process.exit(run.status ?? 1);
