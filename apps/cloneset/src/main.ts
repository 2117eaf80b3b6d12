/**
 * The CloneSet controller process: flags → manager → controller → run until SIGTERM/SIGINT.
 * Only this file reads the command line and (through client-node's default kubeconfig loading) the
 * environment.
 */
import {
  createLogger,
  loadKubeConfig,
  logStartupWarnings,
  Manager,
  managerFlagsSchema,
  managerOptionsFromFlags,
  OPENKRUISE_MANAGER_FLAGS,
  parseFlagsOrExit,
} from '@kruise-ts/controller-runtime';

import { cloneSetFlagsShape, cloneSetOptionsFromFlags } from './flags.ts';
import { setupCloneSetController } from './controller.ts';

const flagsSchema = managerFlagsSchema.extend(cloneSetFlagsShape);

const argv = process.argv.slice(2);
const flags = parseFlagsOrExit(argv, flagsSchema, OPENKRUISE_MANAGER_FLAGS);
const logger = createLogger({ level: flags['log-level'], format: flags['log-format'], base: { app: 'cloneset' } });
logStartupWarnings(logger, { argv, compat: OPENKRUISE_MANAGER_FLAGS, gates: flags['feature-gates'] });
if (!flags['feature-gates'].enabled('CloneSet')) {
  logger.info('The CloneSet feature gate is off; nothing to run');
  process.exit(0);
}
const manager = new Manager(
  managerOptionsFromFlags(flags, { kubeConfig: loadKubeConfig(flags.kubeconfig), logger, userAgent: 'kruise-ts-cloneset', defaultLeaseName: 'kruise-ts-cloneset' }),
);
setupCloneSetController(manager, cloneSetOptionsFromFlags(flags));
const stop = new AbortController();
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'Shutting down');
    stop.abort();
  });
}
try {
  await manager.start(stop.signal);
  process.exit(0);
} catch (error) {
  logger.fatal({ err: error }, 'The manager stopped with an error');
  process.exit(1);
}
