/**
 * `npm run build`: writes dist/<process>.mjs for every process the image starts, and dist/kruise-ts-cli.mjs
 * for the command-line tool (see bundle-apps.ts). `--out-dir <dir>` writes them there instead: the
 * process kubelet's tests build an image of their own each, since several test files run at once and
 * a bundle rewritten under a starting container would crash it.
 */
import { parseArgs } from 'node:util';

import { bundleApps } from './bundle-apps.ts';

const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } }, strict: true });
const started = performance.now();
const files = await bundleApps({ outDir: values['out-dir'] });
process.stdout.write(
  `built ${Object.values(files).join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)}s\n`,
);
