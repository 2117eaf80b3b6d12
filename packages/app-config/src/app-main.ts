/**
 * The whole `main` of a kruise-ts app: flags (the manager's and the app's, OpenKruise's aliases
 * accepted), the logger, start-up warnings, the app's feature gate, the manager, the controller, and
 * a graceful stop on SIGTERM/SIGINT. Only an app's main calls it, with `process.argv`.
 */
import type { z } from 'zod';

import { CONVERSION_WEBHOOK_PATH } from '@kruise-ts/api';

import {
  createLogger,
  loadKubeConfig,
  Manager,
  managerOptionsFromFlags,
  parseFlagsOrExit,
} from '@kruise-ts/controller-runtime';
import type { KubeConfigLike } from '@kruise-ts/controller-runtime';
import { shardingFromFlags } from '@kruise-ts/sharding';
import { webhookServerFromFlags } from '@kruise-ts/webhook';
import type { ObjectConverter, WebhookFlags, WebhookServer } from '@kruise-ts/webhook';

import type { FeatureGateName } from './feature-gates/known-gates.ts';
import type { ManagerFlags } from './manager-flags.ts';
import { OPENKRUISE_MANAGER_FLAGS } from './openkruise-flags.ts';
import { logStartupWarnings } from './startup-warnings.ts';

/** One app's main. */
export interface AppMainOptions<S extends z.ZodObject> {
  /** As in `apps/<name>`: the logs' `app`, the user agent `kruise-ts-<app>` and the default Lease name. */
  readonly app: string;
  /** The feature gate that turns the app on; off means the process exits 0 at once. */
  readonly gate: FeatureGateName;
  /** The manager's flags extended with the app's (`managerFlagsSchema.extend(...)`). */
  readonly schema: S;
  readonly setup: (manager: Manager, flags: z.output<S>) => void;
  /**
   * For an app that serves admission webhooks (its schema then extends webhookFlagsShape too): the
   * handlers it registers on the process's webhook server, built from the webhook flags.
   */
  readonly webhooks?: (manager: Manager, server: WebhookServer, flags: z.output<S>) => void;
  /**
   * The app's validating webhook (issue 20), registered on the same server when its boolean flag
   * (`--<app>-validation-webhook`) is true; the schema then extends webhookFlagsShape too.
   */
  /**
   * For an app whose kind is served in several versions: the converter of its CRD's conversion webhook,
   * served at `/convert` on the process's webhook server (issue 29).
   */
  readonly conversionWebhook?: ObjectConverter;
  readonly validationWebhook?: {
    readonly flag: keyof z.output<S> & string;
    readonly setup: (manager: Manager, server: WebhookServer, flags: z.output<S>) => void;
  };
}

/** Runs the app until a signal stops it; exits the process (0 after a clean stop, 1 on a fatal error). */
export async function runAppMain<S extends z.ZodObject>(
  argv: readonly string[],
  options: AppMainOptions<S>,
): Promise<never> {
  const flags = parseFlagsOrExit(argv, options.schema, OPENKRUISE_MANAGER_FLAGS);
  // The schema extends managerFlagsSchema, so the parsed flags carry every manager flag.
  const common = flags as unknown as ManagerFlags;
  const logger = createLogger({ level: common['log-level'], format: common['log-format'], base: { app: options.app } });
  logStartupWarnings(logger, { argv, compat: OPENKRUISE_MANAGER_FLAGS, gates: common['feature-gates'] });
  if (!common['feature-gates'].enabled(options.gate)) {
    logger.info(`The ${options.gate} feature gate is off; nothing to run`);
    process.exit(0);
  }
  const kubeConfig = await loadKubeConfigOrExit(common.kubeconfig);
  const managerProcess = {
    kubeConfig,
    logger,
    userAgent: `kruise-ts-${options.app}`,
    defaultLeaseName: `kruise-ts-${options.app}`,
  };
  const manager = new Manager({
    ...managerOptionsFromFlags(common, managerProcess),
    sharding: shardingFromFlags(common, managerProcess),
  });
  options.setup(manager, flags);
  setupWebhooks(manager, options, flags);
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
}

function setupWebhooks<S extends z.ZodObject>(manager: Manager, options: AppMainOptions<S>, flags: z.output<S>): void {
  const validation = options.validationWebhook;
  if (options.webhooks === undefined && validation === undefined && options.conversionWebhook === undefined) {
    return;
  }
  // The server is served even with the validation webhook turned off, as the chart's probes expect it.
  const server = webhookServerFromFlags(manager, flags as unknown as WebhookFlags);
  options.webhooks?.(manager, server, flags);
  if (options.conversionWebhook !== undefined) {
    server.registerConversion(CONVERSION_WEBHOOK_PATH, options.conversionWebhook);
  }
  if (validation !== undefined && (flags as Record<string, unknown>)[validation.flag] === true) {
    validation.setup(manager, server, flags);
  }
}

/** The process's kubeconfig; a kubeconfig that cannot be read ends the process with exit code 2 and the reason. */
export async function loadKubeConfigOrExit(file: string | undefined): Promise<KubeConfigLike> {
  try {
    return await loadKubeConfig(file);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}
