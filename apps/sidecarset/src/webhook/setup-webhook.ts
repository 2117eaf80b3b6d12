import type { Manager, WebhookServer } from '@kruise-ts/controller-runtime';

import { sidecarSetRevisionInformer } from '../revision/revision-informer.ts';
import { namespaceResource, sidecarSetResource } from '../sidecarset-resource.ts';
import { podInjectionHandler } from './pod-injection-handler.ts';

/** OpenKruise's path of the pod mutating webhook. */
export const POD_WEBHOOK_PATH = '/mutate-pod';

/** What the webhook needs of the app's options. */
export interface SidecarSetWebhookOptions {
  /** Where the SidecarSets' revisions live (for a pinned `injectionStrategy.revision`). */
  readonly revisionNamespace: string;
  /** The PodWebhook gate (default on): off, no pod handler is registered and no sidecar is injected, as in OpenKruise. */
  readonly podWebhook?: boolean | undefined;
  /**
   * The SidecarSetPatchPodMetadataDefaultsAllowed gate (default off): on, the validation webhook admits
   * patchPodMetadata when the `kruise-configuration` ConfigMap has no whitelist for the SidecarSet.
   */
  readonly patchPodMetadataDefaultsAllowed?: boolean | undefined;
}

/**
 * Registers the pod injection handler on the process's webhook server, with the manager's caches of
 * SidecarSets and namespaces (shared with the controller); nothing with PodWebhook=false. Fail-open: a handler that throws or runs out
 * of time admits the pod unchanged, and the controller reports it.
 */
export function setupSidecarSetWebhook(manager: Manager, server: WebhookServer, options: SidecarSetWebhookOptions): void {
  if (options.podWebhook === false) {
    manager.logger.info('PodWebhook=false: the pod webhook is not served, new pods get no sidecars');
    return;
  }
  const sets = manager.informers.informerFor({ resource: sidecarSetResource });
  const namespaces = manager.informers.informerFor({ resource: namespaceResource });
  const revisions = sidecarSetRevisionInformer(manager, options.revisionNamespace);
  const handler = podInjectionHandler({
    sidecarSets: sets.lister(),
    namespaces: namespaces.lister(),
    revisions: () => revisions.lister().list({ namespace: options.revisionNamespace }),
    clock: { now: () => Date.now() },
    random: Math.random,
    synced: async (signal) => {
      await Promise.all([sets.waitForSync(signal), namespaces.waitForSync(signal), revisions.waitForSync(signal)]);
    },
  });
  server.register(POD_WEBHOOK_PATH, handler, { failurePolicy: 'allow' });
}
