import { threadModuleUrl } from '@kruise-ts/webhook';
import type { Manager } from '@kruise-ts/controller-runtime';
import type { MirroredInformer, WebhookServer } from '@kruise-ts/webhook';
import type { z } from 'zod';

import { sidecarSetRevisionInformer } from '../revision/revision-informer.ts';
import { namespaceResource, sidecarSetResource } from '../sidecarset-resource.ts';
import { POD_INJECTION_STORES } from './pod-injection-thread.ts';
import type { podInjectionThreadOptionsSchema } from './pod-injection-thread.ts';

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

/** The handler's module (pod-injection-thread.ts), for the admission thread; `dist/sidecarset-pod-injection.mjs` in the bundles. */
const POD_INJECTION_MODULE = threadModuleUrl(
  import.meta.url,
  './pod-injection-thread.ts',
  'sidecarset-pod-injection.mjs',
);

/**
 * Registers the pod injection handler on the process's webhook server, threaded: on the admission
 * thread, with mirrors of the manager's caches of SidecarSets, namespaces and revisions (shared
 * with the controller), when the server has one; nothing with PodWebhook=false. Fail-open: a
 * handler that throws or runs out of time admits the pod unchanged, and the controller reports it.
 */
export function setupSidecarSetWebhook(
  manager: Manager,
  server: WebhookServer,
  options: SidecarSetWebhookOptions,
): void {
  if (options.podWebhook === false) {
    manager.logger.info('PodWebhook=false: the pod webhook is not served, new pods get no sidecars');
    return;
  }
  const stores: Record<string, MirroredInformer> = {
    [POD_INJECTION_STORES.sidecarSets]: manager.informers.informerFor({ resource: sidecarSetResource }),
    [POD_INJECTION_STORES.namespaces]: manager.informers.informerFor({ resource: namespaceResource }),
    [POD_INJECTION_STORES.revisions]: sidecarSetRevisionInformer(manager, options.revisionNamespace),
  };
  const threadOptions: z.input<typeof podInjectionThreadOptionsSchema> = {
    revisionNamespace: options.revisionNamespace,
  };
  server.registerThreaded(
    POD_WEBHOOK_PATH,
    { module: POD_INJECTION_MODULE, options: threadOptions, stores },
    { failurePolicy: 'allow' },
  );
}
