#!/usr/bin/env node
// The `kruise-ts` and `kubectl-kruise_ts` executables. They run the bundle `npm run build` writes
// (dist/kruise-ts-cli.mjs, which starts in a fraction of the time) when there is one, else the
// TypeScript sources, whose workspace imports resolve to sources under the @kruise-ts/source condition.
import { existsSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { fileURLToPath, URL } from 'node:url';

// V8's compile cache: most of a command's start-up is compiling the bundle (undici, mostly).
nodeModule.enableCompileCache?.();
const bundle = new URL('../../../dist/kruise-ts-cli.mjs', import.meta.url);
if (existsSync(fileURLToPath(bundle))) {
  await import(bundle.href);
} else if (typeof nodeModule.registerHooks === 'function') {
  nodeModule.registerHooks({
    resolve: (specifier, context, nextResolve) =>
      nextResolve(specifier, { ...context, conditions: [...context.conditions, '@kruise-ts/source'] }),
  });
  await import(new URL('../src/main.ts', import.meta.url).href);
} else {
  process.stderr.write(
    `error: running kruise-ts from its sources needs Node.js 24 (this is ${process.version}): run it with the project's node, or run npm run build first\n`,
  );
  process.exitCode = 1;
}
