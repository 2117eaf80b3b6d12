/**
 * Fails when an installed package's `engines` rule out the Node that runs it (the Node 24 in
 * node_modules/.bin). `npm ci` checks engines against the Node that runs npm itself, which is the
 * machine's own and often older, so on such a machine it warned about packages that never run there;
 * the project's .npmrc keeps those warnings off the screen, and this check asks the real question
 * instead. Run through npm (`npm run node:check`): npm scripts run on Node 24.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const npmCli = process.env.npm_execpath;
if (npmCli === undefined || npmCli === '') {
  process.stderr.write(
    'scripts/check-engines.mjs: run it through npm (`npm run node:check`), which runs it on the Node 24 of node_modules/.bin.\n',
  );
  process.exit(1);
}
// npm's own copy of semver: the same range semantics npm checks engines with, and no dependency of ours.
const semver = createRequire(npmCli)('semver');

const lock = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'package-lock.json'), 'utf8'));
const node = process.version;
// Optional packages are left out of the check as npm leaves them out: one that does not fit is not installed.
const problems = Object.entries(lock.packages)
  .filter(([, meta]) => meta.optional !== true && typeof meta.engines?.node === 'string')
  .filter(([, meta]) => !semver.satisfies(node, meta.engines.node, { includePrerelease: true }))
  .map(
    ([location, meta]) =>
      `  ${location === '' ? 'kruise-ts (package.json)' : `${location.replace(/^.*node_modules\//, '')}@${meta.version}`} needs node ${meta.engines.node}`,
  );

if (problems.length > 0) {
  process.stderr.write(
    `These packages do not support Node ${node}, the Node that runs them here:\n${problems.join('\n')}\n` +
      'Move the `node` devDependency to a version they support, or pin them to versions that support this one.\n',
  );
  process.exit(1);
}
