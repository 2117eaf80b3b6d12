/**
 * Fails with a clear message unless this is Node 24. npm scripts put node_modules/.bin first on PATH,
 * where `npm ci` installs Node 24 (the `node` devDependency), so `npm test` and friends run on it even
 * when the machine's own Node is older.
 */
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major !== REQUIRED_MAJOR) {
  process.stderr.write(
    `kruise-ts needs Node ${REQUIRED_MAJOR}, but this is Node ${process.versions.node} (${process.execPath}).\n` +
      'Run commands through npm (`npm test`, `npm run cluster:up`, `npx vitest`): after `npm ci` they use the Node 24 in node_modules/.bin.\n',
  );
  process.exit(1);
}
