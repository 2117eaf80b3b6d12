/**
 * The kruise-ts apps this launcher can run, each behind its feature gate. A new app adds one entry:
 * its gate, its Lease name, its CRD files and how it registers with a manager.
 */
import { setupStatefulSetController, statefulSetFlagsShape, statefulSetOptionsFromFlags } from '@kruise-ts/advanced-statefulset';
import { broadcastJobFlagsShape, broadcastJobOptionsFromFlags, setupBroadcastJobController } from '@kruise-ts/broadcastjob';
import { cloneSetFlagsShape, cloneSetOptionsFromFlags, setupCloneSetController } from '@kruise-ts/cloneset';
import { managerFlagsSchema, webhookFlagsShape } from '@kruise-ts/controller-runtime';
import type { FeatureGateName, Manager, WebhookServer } from '@kruise-ts/controller-runtime';
import { addLocalWebhookConfiguration, setupSidecarSetController, setupSidecarSetWebhook, sidecarSetFlagsShape, sidecarSetOptionsFromFlags, webhookNamespaceSelector } from '@kruise-ts/sidecarset';
import { z } from 'zod';

import { LocalNamespace } from './local-namespace.ts';

/** The launcher's own flags: what only a process next to a local control plane does. */
export const launcherOwnFlagsShape = {
  // The MutatingWebhookConfiguration the process writes for its webhooks (url https://127.0.0.1:<port>),
  // deleted when it stops; empty: none. In a cluster the chart renders the configuration instead.
  'webhook-local-configuration': z
    .string()
    .regex(/^([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?)?$/, 'must be a Kubernetes object name (lower-case letters, digits, dashes and dots), or empty for none')
    .default(''),
};

/** Every flag of every app, on top of the manager's: what the all-in-one process accepts. */
export const launcherFlagsSchema = managerFlagsSchema.extend({ ...cloneSetFlagsShape, ...statefulSetFlagsShape, ...sidecarSetFlagsShape, ...broadcastJobFlagsShape, ...webhookFlagsShape, ...launcherOwnFlagsShape });

/** Parsed launcher flags. */
export type LauncherFlags = z.output<typeof launcherFlagsSchema>;

/** One app. */
export interface AppEntry {
  /** As in `apps/<name>` and in the chart. */
  readonly name: string;
  readonly gate: FeatureGateName;
  /** The Lease the app uses when it runs on its own. */
  readonly leaseName: string;
  /** CRD files under the repository's `crds/`. */
  readonly crdFiles: readonly string[];
  readonly setup: (manager: Manager, flags: LauncherFlags) => void;
  /**
   * The admission webhook handlers the app registers on the process's one webhook server, if any, and
   * with --webhook-local-configuration their configuration for the local control plane.
   */
  readonly webhooks?: (manager: Manager, server: WebhookServer, flags: LauncherFlags) => void;
}

export const APPS: readonly AppEntry[] = [
  {
    name: 'cloneset',
    gate: 'CloneSet',
    leaseName: 'kruise-ts-cloneset',
    crdFiles: ['apps.kruise.io_clonesets.yaml'],
    setup: (manager: Manager, flags: LauncherFlags): void => {
      setupCloneSetController(manager, cloneSetOptionsFromFlags(flags));
    },
  },
  {
    name: 'advanced-statefulset',
    gate: 'AdvancedStatefulSet',
    leaseName: 'kruise-ts-advanced-statefulset',
    crdFiles: ['apps.kruise.io_statefulsets.yaml'],
    setup: (manager: Manager, flags: LauncherFlags): void => {
      setupStatefulSetController(manager, statefulSetOptionsFromFlags(flags));
    },
  },
  {
    name: 'sidecarset',
    gate: 'SidecarSet',
    leaseName: 'kruise-ts-sidecarset',
    crdFiles: ['apps.kruise.io_sidecarsets.yaml'],
    setup: (manager: Manager, flags: LauncherFlags): void => {
      setupSidecarSetController(manager, sidecarSetOptionsFromFlags(flags));
    },
    webhooks: (manager: Manager, server: WebhookServer, flags: LauncherFlags): void => {
      const options = sidecarSetOptionsFromFlags(flags);
      setupSidecarSetWebhook(manager, server, options);
      const name = flags['webhook-local-configuration'];
      if (name !== '') {
        manager.add(new LocalNamespace({ client: manager.client, name: options.revisionNamespace, logger: manager.logger.child({ component: 'local-namespace' }) }));
        // Fail-open as in production; only the namespaces this process caches when it is restricted to one.
        addLocalWebhookConfiguration(manager, server, { name, namespaceSelector: webhookNamespaceSelector({ excluded: flags['sidecarset-excluded-namespaces'], namespace: flags.namespace }) });
      }
    },
  },
  {
    name: 'broadcastjob',
    gate: 'BroadcastJob',
    leaseName: 'kruise-ts-broadcastjob',
    crdFiles: ['apps.kruise.io_broadcastjobs.yaml'],
    setup: (manager: Manager, flags: LauncherFlags): void => {
      setupBroadcastJobController(manager, broadcastJobOptionsFromFlags(flags));
    },
  },
];

/** The apps whose gate is on. */
export function enabledApps(flags: LauncherFlags): AppEntry[] {
  return APPS.filter((app) => flags['feature-gates'].enabled(app.gate));
}
