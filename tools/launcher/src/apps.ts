/**
 * The kruise-ts apps this launcher can run, each behind its feature gate. A new app adds one entry:
 * its gate, its Lease name, its CRD files and how it registers with a manager.
 */
import { managerFlagsSchema } from '@kruise-ts/app-config';
import type { FeatureGateName } from '@kruise-ts/app-config';
import {
  setupStatefulSetController,
  setupStatefulSetWebhook,
  STATEFULSET_VALIDATION_WEBHOOK,
  statefulSetFlagsShape,
  statefulSetOptionsFromFlags,
} from '@kruise-ts/advanced-statefulset';
import {
  BROADCASTJOB_VALIDATION_WEBHOOK,
  broadcastJobFlagsShape,
  broadcastJobOptionsFromFlags,
  setupBroadcastJobController,
  setupBroadcastJobWebhook,
} from '@kruise-ts/broadcastjob';
import {
  CLONESET_VALIDATION_WEBHOOK,
  cloneSetFlagsShape,
  cloneSetOptionsFromFlags,
  setupCloneSetController,
  setupCloneSetWebhook,
} from '@kruise-ts/cloneset';
import { addLocalWebhookConfiguration, webhookFlagsShape } from '@kruise-ts/webhook';
import { booleanFlag } from '@kruise-ts/controller-runtime';
import type { Manager } from '@kruise-ts/controller-runtime';
import type { WebhookServer } from '@kruise-ts/webhook';
import {
  addLocalPodWebhookConfiguration,
  SIDECARSET_VALIDATION_WEBHOOK,
  setupSidecarSetController,
  setupSidecarSetValidationWebhook,
  setupSidecarSetWebhook,
  sidecarSetFlagsShape,
  sidecarSetOptionsFromFlags,
  webhookNamespaceSelector,
} from '@kruise-ts/sidecarset';
import { SIDECARSET_CRD_NAME, STATEFULSET_CRD_NAME } from '@kruise-ts/api';
import type { LabelSelector } from '@kruise-ts/api';
import { validatingWebhookConfiguration } from '@kruise-ts/template-validation';
import type { ValidationWebhook } from '@kruise-ts/template-validation';
import { z } from 'zod';

import { LocalNamespace } from './local-namespace.ts';

/** The launcher's own flags: what only a process next to a local control plane does. */
export const launcherOwnFlagsShape = {
  // The MutatingWebhookConfiguration the process writes for its webhooks (url https://127.0.0.1:<port>),
  // deleted when it stops; empty: none. In a cluster the chart renders the configuration instead.
  'webhook-local-configuration': z
    .string()
    .regex(
      /^([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?)?$/,
      'must be a Kubernetes object name (lower-case letters, digits, dashes and dots), or empty for none',
    )
    .default(''),
  // With --webhook-local-configuration: also point the conversion webhooks of the enabled apps' CRDs at
  // this process. Off for a process on a cluster where another one serves the conversions already
  // (the integration tests' run-wide converter), so that stopping this one does not leave them dangling.
  'webhook-local-conversion': booleanFlag().default(true),
};

/** Every flag of every app, on top of the manager's: what the all-in-one process accepts. */
export const launcherFlagsSchema = managerFlagsSchema.extend({
  ...cloneSetFlagsShape,
  ...statefulSetFlagsShape,
  ...sidecarSetFlagsShape,
  ...broadcastJobFlagsShape,
  ...webhookFlagsShape,
  ...launcherOwnFlagsShape,
});

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
  /** The CRDs whose conversion webhook the app serves (kinds served in two versions that differ). */
  readonly conversionCrds?: readonly string[];
}

/** A process restricted with --namespace validates only that namespace's objects (cluster-scoped kinds ignore the selector). */
function onlyNamespace(namespace: string | undefined): LabelSelector | undefined {
  return namespace === undefined || namespace === ''
    ? undefined
    : { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [namespace] }] };
}

/**
 * With --webhook-local-configuration `<name>`: the ValidatingWebhookConfiguration `<name>-<app>` of an
 * app's validation webhook, at https://127.0.0.1:<port>, fail-open as in production.
 */
function addLocalValidation(
  manager: Manager,
  server: WebhookServer,
  input: { readonly flags: LauncherFlags; readonly app: string; readonly webhook: ValidationWebhook },
): void {
  const base = input.flags['webhook-local-configuration'];
  if (base === '') {
    return;
  }
  const name = `${base}-${input.app}`;
  addLocalWebhookConfiguration(manager, server, {
    kind: 'ValidatingWebhookConfiguration',
    name,
    build: ({ port, caBundle }) =>
      validatingWebhookConfiguration({
        name,
        webhooks: [input.webhook],
        clientConfig: { baseUrl: `https://127.0.0.1:${String(port)}` },
        caBundle,
        namespaceSelector: onlyNamespace(input.flags.namespace),
      }),
  });
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
    webhooks: (manager: Manager, server: WebhookServer, flags: LauncherFlags): void => {
      if (flags['cloneset-validation-webhook']) {
        setupCloneSetWebhook(manager, server, cloneSetOptionsFromFlags(flags));
        addLocalValidation(manager, server, { flags, app: 'cloneset', webhook: CLONESET_VALIDATION_WEBHOOK });
      }
    },
  },
  {
    name: 'advanced-statefulset',
    gate: 'AdvancedStatefulSet',
    leaseName: 'kruise-ts-advanced-statefulset',
    crdFiles: ['apps.kruise.io_statefulsets.yaml'],
    conversionCrds: [STATEFULSET_CRD_NAME],
    setup: (manager: Manager, flags: LauncherFlags): void => {
      setupStatefulSetController(manager, statefulSetOptionsFromFlags(flags));
    },
    webhooks: (manager: Manager, server: WebhookServer, flags: LauncherFlags): void => {
      if (flags['statefulset-validation-webhook']) {
        setupStatefulSetWebhook(manager, server, statefulSetOptionsFromFlags(flags));
        addLocalValidation(manager, server, {
          flags,
          app: 'advanced-statefulset',
          webhook: STATEFULSET_VALIDATION_WEBHOOK,
        });
      }
    },
  },
  {
    name: 'sidecarset',
    gate: 'SidecarSet',
    leaseName: 'kruise-ts-sidecarset',
    crdFiles: ['apps.kruise.io_sidecarsets.yaml'],
    conversionCrds: [SIDECARSET_CRD_NAME],
    setup: (manager: Manager, flags: LauncherFlags): void => {
      setupSidecarSetController(manager, sidecarSetOptionsFromFlags(flags));
    },
    webhooks: (manager: Manager, server: WebhookServer, flags: LauncherFlags): void => {
      const options = sidecarSetOptionsFromFlags(flags);
      setupSidecarSetWebhook(manager, server, options);
      if (flags['sidecarset-validation-webhook']) {
        setupSidecarSetValidationWebhook(manager, server, options);
        addLocalValidation(manager, server, { flags, app: 'sidecarset', webhook: SIDECARSET_VALIDATION_WEBHOOK });
      }
      const name = flags['webhook-local-configuration'];
      if (name !== '') {
        manager.add(
          new LocalNamespace({
            client: manager.client,
            name: options.revisionNamespace,
            logger: manager.logger.child({ component: 'local-namespace' }),
          }),
        );
        // Fail-open as in production; only the namespaces this process caches when it is restricted to one.
        addLocalPodWebhookConfiguration(manager, server, {
          name,
          namespaceSelector: webhookNamespaceSelector({
            excluded: flags['sidecarset-excluded-namespaces'],
            namespace: flags.namespace,
          }),
        });
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
    webhooks: (manager: Manager, server: WebhookServer, flags: LauncherFlags): void => {
      if (flags['broadcastjob-validation-webhook']) {
        setupBroadcastJobWebhook(manager, server, broadcastJobOptionsFromFlags(flags));
        addLocalValidation(manager, server, { flags, app: 'broadcastjob', webhook: BROADCASTJOB_VALIDATION_WEBHOOK });
      }
    },
  },
];

/** The apps whose gate is on. */
export function enabledApps(flags: LauncherFlags): AppEntry[] {
  return APPS.filter((app) => flags['feature-gates'].enabled(app.gate));
}
