import { CONVERSION_WEBHOOK_PATH, convertObject } from '@kruise-ts/api';
import { addLocalConversionWebhook, webhookServerFromFlags } from '@kruise-ts/webhook';
import { Manager, managerOptionsFromFlags } from '@kruise-ts/controller-runtime';
import type { KubeConfigLike, ManagerOptions, RequestObserver } from '@kruise-ts/controller-runtime';
import { shardingFromFlags } from '@kruise-ts/sharding';
import type { WebhookFlags, WebhookServer } from '@kruise-ts/webhook';
import type { Logger } from 'pino';

import { enabledApps } from './apps.ts';
import type { AppEntry, LauncherFlags } from './apps.ts';

const LOOPBACK = '127.0.0.1';

/** Lease of the all-in-one process (each app alone uses its own). */
export const ALL_IN_ONE_LEASE = 'kruise-ts-all-in-one';

export interface RunningControllers {
  readonly manager: Manager;
  readonly apps: readonly AppEntry[];
  /** Resolves when the manager stopped (after `stop()`, or on a fatal error, which it rejects with). */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

export interface StartControllersOptions {
  readonly flags: LauncherFlags;
  readonly kubeConfig: KubeConfigLike;
  readonly logger: Logger;
  readonly requestObservers?: readonly RequestObserver[] | undefined;
  /** Overrides of the manager options the flags give (tests, the demo). */
  readonly overrides?: Partial<ManagerOptions> | undefined;
}

/**
 * Starts one manager with every app whose feature gate is on. Throws when no app is enabled, since
 * a process that runs nothing is a mistake worth saying.
 */
export function startControllers(options: StartControllersOptions): RunningControllers {
  const apps = enabledApps(options.flags);
  if (apps.length === 0) {
    throw new Error(`no app is enabled by --feature-gates (app gates: ${enabledAppGates()})`);
  }
  const webhookFlags = webhookFlagsOf(options.flags);
  const managerProcess = {
    kubeConfig: options.kubeConfig,
    logger: options.logger,
    userAgent: 'kruise-ts',
    defaultLeaseName: ALL_IN_ONE_LEASE,
  };
  const manager = new Manager({
    ...managerOptionsFromFlags(options.flags, managerProcess),
    sharding: shardingFromFlags(options.flags, managerProcess),
    requestObservers: options.requestObservers,
    ...options.overrides,
  });
  for (const app of apps) {
    app.setup(manager, options.flags);
  }
  const webhookApps = apps.filter((app) => app.webhooks !== undefined);
  const conversionCrds = apps.flatMap((app) => app.conversionCrds ?? []);
  if (webhookApps.length > 0 || conversionCrds.length > 0) {
    // One HTTPS server for every app's handlers.
    const server = webhookServerFromFlags(manager, webhookFlags);
    for (const app of webhookApps) {
      app.webhooks?.(manager, server, options.flags);
    }
    setupConversion(manager, server, { flags: options.flags, crds: conversionCrds });
  }
  const stopper = new AbortController();
  const done = manager.start(stopper.signal);
  return {
    manager,
    apps,
    done,
    stop: async () => {
      stopper.abort();
      await done;
    },
  };
}

/** One `/convert` for every enabled app's kinds; with a local configuration, the CRDs pointed at it. */
function setupConversion(
  manager: Manager,
  server: WebhookServer,
  input: { readonly flags: LauncherFlags; readonly crds: readonly string[] },
): void {
  if (input.crds.length === 0) {
    return;
  }
  server.registerConversion(CONVERSION_WEBHOOK_PATH, convertObject);
  if (input.flags['webhook-local-configuration'] !== '' && input.flags['webhook-local-conversion']) {
    addLocalConversionWebhook(manager, server, input.crds);
  }
}

/**
 * The webhook server's flags: with a local configuration, whose URL is https://127.0.0.1:<port>, the
 * server listens on 127.0.0.1 only (nothing else needs to reach it).
 */
function webhookFlagsOf(flags: LauncherFlags): WebhookFlags {
  if (flags['webhook-local-configuration'] === '') {
    return flags;
  }
  const host = flags['webhook-host'];
  if (host !== '' && host !== LOOPBACK) {
    throw new Error(
      `--webhook-local-configuration registers the webhooks at https://${LOOPBACK}:<port>: --webhook-host must be ${LOOPBACK} or left out (got ${host})`,
    );
  }
  return { ...flags, 'webhook-host': LOOPBACK };
}

function enabledAppGates(): string {
  return ['CloneSet', 'AdvancedStatefulSet', 'SidecarSet', 'BroadcastJob'].join(', ');
}
