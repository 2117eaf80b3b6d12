/**
 * The pod webhook's handler as the admission thread builds it: from mirrors of the main thread's
 * caches of SidecarSets, namespaces and SidecarSet revisions. A pod create then waits only for
 * this thread, never behind the main thread's watch events and reconciles (issue 31).
 */
import type { ControllerRevision, SidecarSet } from '@kruise-ts/api';
import type { AdmissionHandler, ThreadHandlerContext } from '@kruise-ts/webhook';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

import { podInjectionHandler } from './pod-injection-handler.ts';

/** The names of the caches the handler reads. */
export const POD_INJECTION_STORES = {
  sidecarSets: 'sidecarsets',
  namespaces: 'namespaces',
  revisions: 'sidecarset-revisions',
} as const;

/** What the registration passes to the thread. */
export const podInjectionThreadOptionsSchema = z.object({ revisionNamespace: z.string().min(1) });

export function createAdmissionHandler(context: ThreadHandlerContext): AdmissionHandler {
  const options = podInjectionThreadOptionsSchema.parse(context.options);
  const revisions = context.lister<ControllerRevision>(POD_INJECTION_STORES.revisions);
  return podInjectionHandler({
    sidecarSets: context.lister<SidecarSet>(POD_INJECTION_STORES.sidecarSets),
    namespaces: context.lister<KubeObject>(POD_INJECTION_STORES.namespaces),
    revisions: () => revisions.list({ namespace: options.revisionNamespace }),
    clock: { now: () => Date.now() },
    random: Math.random,
    synced: (signal) => context.waitForSync(signal),
  });
}
