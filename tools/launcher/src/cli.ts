/**
 * Every enabled kruise-ts app in one process, for local use:
 *
 *   npm run controllers -- --kubeconfig ~/.kube/config --leader-elect=false
 *
 * Flags are the union of the apps' flags (see `apps.ts`); `--feature-gates` selects the apps. In a
 * cluster, the Helm chart runs each app as its own Deployment instead.
 */
import { createLogger, parseFlagsOrExit } from '@kruise-ts/controller-runtime';
import { loadKubeConfigOrExit, logStartupWarnings, OPENKRUISE_MANAGER_FLAGS } from '@kruise-ts/app-config';

import { launcherFlagsSchema } from './apps.ts';
import { startControllers } from './controllers.ts';

const argv = process.argv.slice(2);
const flags = parseFlagsOrExit(argv, launcherFlagsSchema, OPENKRUISE_MANAGER_FLAGS);
const logger = createLogger({ level: flags['log-level'], format: flags['log-format'], base: { app: 'all-in-one' } });
logStartupWarnings(logger, { argv, compat: OPENKRUISE_MANAGER_FLAGS, gates: flags['feature-gates'] });
const kubeConfig = await loadKubeConfigOrExit(flags.kubeconfig);
let running;
try {
  running = startControllers({ flags, kubeConfig, logger });
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
// Handlers first: whoever waits for the log line below may signal at once.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'Shutting down');
    void running.stop();
  });
}
logger.info({ apps: running.apps.map((app) => app.name) }, 'Running controllers');
try {
  await running.done;
  process.exit(0);
} catch (error) {
  logger.fatal({ err: error }, 'The manager stopped with an error');
  process.exit(1);
}
