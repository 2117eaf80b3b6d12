/**
 * The CloneSet controller process: flags → manager → controller → run until SIGTERM/SIGINT.
 * Only this file reads the command line and (through client-node's default kubeconfig loading) the
 * environment.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { booleanFlag, createLogger, FlagError, Manager, managerFlagsSchema, parseFlags } from '@kruise-ts/controller-runtime';

import { setupCloneSetController } from './controller.ts';

const flagsSchema = managerFlagsSchema.extend({
  'cloneset-scaling-exclude-preparing-delete': booleanFlag().default(false),
});

function parseCommandLine(): ReturnType<typeof parseFlags<typeof flagsSchema>> {
  try {
    return parseFlags(process.argv.slice(2), flagsSchema);
  } catch (error) {
    if (error instanceof FlagError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

const flags = parseCommandLine();
const logger = createLogger({ level: flags['log-level'], base: { app: 'cloneset' } });
if (!flags['feature-gates'].enabled('CloneSet')) {
  logger.info('The CloneSet feature gate is off; nothing to run');
  process.exit(0);
}
const kubeConfig = new KubeConfig();
if (flags.kubeconfig === undefined) {
  kubeConfig.loadFromDefault();
} else {
  kubeConfig.loadFromFile(flags.kubeconfig);
}
const manager = new Manager({
  kubeConfig,
  logger,
  userAgent: 'kruise-ts-cloneset',
  qps: flags['kube-api-qps'],
  burst: flags['kube-api-burst'],
  namespace: flags.namespace,
  leaderElection: {
    enabled: flags['leader-elect'],
    namespace: flags['leader-election-namespace'],
    name: flags['leader-election-id'] ?? 'kruise-ts-cloneset',
    leaseDurationMs: flags['leader-election-lease-duration'],
    renewDeadlineMs: flags['leader-election-renew-deadline'],
    retryPeriodMs: flags['leader-election-retry-period'],
  },
  metricsAddress: flags['metrics-bind-address'],
  healthProbeAddress: flags['health-probe-bind-address'],
  gracefulShutdownTimeoutMs: flags['graceful-shutdown-timeout'],
  cacheSyncTimeoutMs: flags['cache-sync-timeout'],
});
setupCloneSetController(manager, {
  featureGates: flags['feature-gates'],
  workers: flags.workers,
  expectationTimeoutMs: flags['expectation-timeout'],
  scalingExcludePreparingDelete: flags['cloneset-scaling-exclude-preparing-delete'],
});
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
