/**
 * `npm run build`: writes dist/<process>.mjs for every process the image starts, and dist/kruise-ts-cli.mjs
 * for the command-line tool (see bundle-apps.ts).
 */
import { bundleApps } from './bundle-apps.ts';

const started = performance.now();
const files = await bundleApps();
process.stdout.write(
  `built ${Object.values(files).join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)}s\n`,
);
