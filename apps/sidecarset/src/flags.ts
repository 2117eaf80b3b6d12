import { workersFlag, workloadControllerOptions } from '@kruise-ts/app-config';
import type { WorkloadControllerFlags } from '@kruise-ts/app-config';
import { booleanFlag } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

import type { SidecarSetControllerOptions } from './controller.ts';
import type { SidecarSetWebhookOptions } from './webhook/setup-webhook.ts';

/** The app's own flags, added to the manager's by its main and by the all-in-one launcher. */
export const sidecarSetFlagsShape = {
  // OpenKruise's flag: this controller's workers, over --workers (every controller's default).
  'sidecarset-workers': workersFlag(),
  // The namespaces the pod webhook configuration excludes (the chart adds the release namespace).
  'sidecarset-excluded-namespaces': z
    .string()
    .default('kube-system')
    .transform((text) =>
      text
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  // Where the SidecarSets' ControllerRevisions live; empty: the manager's --namespace when it is restricted to one (it
  // caches nothing else), else the leader-election namespace (the controllers' own, as OpenKruise's kruise-system).
  'sidecarset-revision-namespace': z.string().default(''),
  // The validating webhook of SidecarSets (their containers and volumes dry-run as a pod) on the process's webhook server.
  'sidecarset-validation-webhook': booleanFlag().default(true),
};

/** The parsed flags the controller options come from: the shared workload ones, and SidecarSet's. */
export interface SidecarSetFlags extends WorkloadControllerFlags {
  readonly namespace: string;
  readonly 'sidecarset-workers'?: number | undefined;
  readonly 'sidecarset-excluded-namespaces': readonly string[];
  readonly 'sidecarset-revision-namespace': string;
  readonly 'sidecarset-validation-webhook': boolean;
  readonly 'leader-election-namespace': string;
}

/** Controller options from parsed flags. */
export function sidecarSetOptionsFromFlags(
  flags: SidecarSetFlags,
): SidecarSetControllerOptions & SidecarSetWebhookOptions {
  const revisionNamespace =
    flags['sidecarset-revision-namespace'] || flags.namespace || flags['leader-election-namespace'];
  const { workers, expectationTimeoutMs } = workloadControllerOptions(flags, flags['sidecarset-workers']);
  return {
    workers,
    excludedNamespaces: flags['sidecarset-excluded-namespaces'],
    namespace: flags.namespace,
    revisionNamespace,
    expectationTimeoutMs,
    // OpenKruise's PodWebhook=false registers no pod webhook: no sidecar is injected.
    podWebhook: flags['feature-gates'].enabled('PodWebhook'),
    patchPodMetadataDefaultsAllowed: flags['feature-gates'].enabled('SidecarSetPatchPodMetadataDefaultsAllowed'),
  };
}
