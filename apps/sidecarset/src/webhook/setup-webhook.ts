import type { Manager, WebhookServer } from '@kruise-ts/controller-runtime';

import { namespaceResource, sidecarSetResource } from '../sidecarset-resource.ts';
import { podInjectionHandler } from './pod-injection-handler.ts';

/** OpenKruise's path of the pod mutating webhook. */
export const POD_WEBHOOK_PATH = '/mutate-pod';

/**
 * Registers the pod injection handler on the process's webhook server, with the manager's caches of
 * SidecarSets and namespaces (shared with the controller). Fail-open: a handler that throws or runs out
 * of time admits the pod unchanged, and the controller reports it.
 */
export function setupSidecarSetWebhook(manager: Manager, server: WebhookServer): void {
  const sets = manager.informers.informerFor({ resource: sidecarSetResource });
  const namespaces = manager.informers.informerFor({ resource: namespaceResource });
  const handler = podInjectionHandler({
    sidecarSets: sets.lister(),
    namespaces: namespaces.lister(),
    clock: { now: () => Date.now() },
    synced: async (signal) => {
      await Promise.all([sets.waitForSync(signal), namespaces.waitForSync(signal)]);
    },
  });
  server.register(POD_WEBHOOK_PATH, handler, { failurePolicy: 'allow' });
}
