/**
 * What is left of OpenKruise, recognised from the objects as read (pure functions): which webhook
 * configurations call its Service, which CRDs have it convert between their versions, and what its
 * manager and daemon run.
 */
import { isDeepStrictEqual } from 'node:util';

import { labelSelectorToString } from '@kruise-ts/controller-runtime';

import {
  KRUISE_TS_CRDS,
  REPLICAS_BEFORE_MIGRATION_ANNOTATION,
  OPENKRUISE_MUTATING_CONFIGURATION,
  OPENKRUISE_VALIDATING_CONFIGURATION,
  OPENKRUISE_WEBHOOK_SERVICE,
} from './openkruise-names.ts';
import type {
  ClientConfig,
  CustomResourceDefinition,
  DaemonSet,
  ManagerDeployment,
  Webhook,
  WebhookConfiguration,
} from './openkruise-objects.ts';

export type ConfigurationKind = 'mutating' | 'validating';

export interface WebhookConfigurationFinding {
  readonly kind: ConfigurationKind;
  readonly name: string;
  readonly uid: string;
  /** Carries the name OpenKruise's chart gives its configuration of this kind. */
  readonly namedAsOpenKruise: boolean;
  readonly webhooks: number;
  /** Its webhooks that call OpenKruise's Service. */
  readonly openKruiseWebhooks: number;
  /** Of those, the ones that refuse pod creation when the Service does not answer (failurePolicy Fail on pods CREATE). */
  readonly podCreationBlockers: number;
  /** Where its other webhooks call, `namespace/service/path` or the URL. */
  readonly elsewhere: readonly string[];
}

export interface CrdFinding {
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly versions: readonly { readonly name: string; readonly served: boolean; readonly storage: boolean }[];
  readonly storedVersions: readonly string[];
  /** `None`, or the webhook it calls: `Webhook kruise-system/kruise-webhook-service/convert`. */
  readonly conversion: string;
  readonly convertedByOpenKruise: boolean;
  /** Every version has the same schema, so converting between them is changing `apiVersion` alone. */
  readonly sameSchemas: boolean;
  readonly servedByKruiseTs: boolean;
}

export interface ManagerFinding {
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly replicas: number;
  /** The label selector of its pods, in the API's string syntax. */
  readonly selector: string;
  /** Its pods, terminating ones included: a terminating manager may still act as leader. */
  readonly pods: number;
  /** What an earlier run recorded in `kruise-ts.io/replicas-before-migration`. */
  readonly recordedReplicas: number | undefined;
}

export interface DaemonFinding {
  readonly name: string;
  readonly pods: number;
}

export interface Findings {
  readonly namespace: string;
  readonly configurations: readonly WebhookConfigurationFinding[];
  readonly manager: ManagerFinding | undefined;
  readonly daemon: DaemonFinding | undefined;
  readonly crds: readonly CrdFinding[];
}

/** The Service OpenKruise's webhooks are called through, in the namespace it was installed in. */
export interface OpenKruiseService {
  readonly namespace: string;
  readonly name: string;
}

export function openKruiseService(namespace: string): OpenKruiseService {
  return { namespace, name: OPENKRUISE_WEBHOOK_SERVICE };
}

export function callsService(config: ClientConfig | undefined, service: OpenKruiseService): boolean {
  return config?.service?.namespace === service.namespace && config.service.name === service.name;
}

/** `kruise-system/kruise-webhook-service/mutate-pod`, or the URL. */
export function clientConfigText(config: ClientConfig | undefined): string {
  if (config?.service !== undefined) {
    const { namespace, name, path } = config.service;
    return `${namespace}/${name}${path ?? ''}`;
  }
  return config?.url ?? '(nowhere)';
}

const OPENKRUISE_NAMES: Readonly<Record<ConfigurationKind, string>> = {
  mutating: OPENKRUISE_MUTATING_CONFIGURATION,
  validating: OPENKRUISE_VALIDATING_CONFIGURATION,
};

/** The configuration as far as OpenKruise is concerned; undefined when it has nothing to do with OpenKruise. */
export function webhookConfigurationFinding(
  kind: ConfigurationKind,
  configuration: WebhookConfiguration,
  service: OpenKruiseService,
): WebhookConfigurationFinding | undefined {
  const { name, uid } = configuration.metadata;
  const ours = configuration.webhooks.filter((webhook) => callsService(webhook.clientConfig, service));
  const namedAsOpenKruise = name === OPENKRUISE_NAMES[kind];
  if (!namedAsOpenKruise && ours.length === 0) {
    return undefined;
  }
  return {
    kind,
    name,
    uid,
    namedAsOpenKruise,
    webhooks: configuration.webhooks.length,
    openKruiseWebhooks: ours.length,
    podCreationBlockers: ours.filter(blocksPodCreation).length,
    elsewhere: configuration.webhooks
      .filter((webhook) => !callsService(webhook.clientConfig, service))
      .map((webhook) => clientConfigText(webhook.clientConfig)),
  };
}

function blocksPodCreation(webhook: Webhook): boolean {
  const covers = (values: readonly string[] | undefined, wanted: readonly string[]): boolean =>
    (values ?? []).some((value) => wanted.includes(value));
  return (
    webhook.failurePolicy === 'Fail' &&
    (webhook.rules ?? []).some(
      (rule) => covers(rule.resources, ['pods', '*', '*/*']) && covers(rule.operations, ['CREATE', '*']),
    )
  );
}

/** The CRD when OpenKruise converts it, or when kruise-ts serves its kind; undefined otherwise. */
export function crdFinding(crd: CustomResourceDefinition, service: OpenKruiseService): CrdFinding | undefined {
  const { conversion, versions } = crd.spec;
  const webhook = conversion?.strategy === 'Webhook' ? conversion.webhook?.clientConfig : undefined;
  const convertedByOpenKruise = callsService(webhook, service);
  const servedByKruiseTs = KRUISE_TS_CRDS.includes(crd.metadata.name);
  if (!convertedByOpenKruise && !servedByKruiseTs) {
    return undefined;
  }
  const [first, ...others] = versions;
  return {
    name: crd.metadata.name,
    uid: crd.metadata.uid,
    resourceVersion: crd.metadata.resourceVersion,
    versions: versions.map(({ name, served, storage }) => ({ name, served, storage })),
    storedVersions: crd.status?.storedVersions ?? [],
    conversion: conversion?.strategy === 'Webhook' ? `Webhook ${clientConfigText(webhook)}` : 'None',
    convertedByOpenKruise,
    sameSchemas: others.every((version) => isDeepStrictEqual(version.schema, first?.schema)),
    servedByKruiseTs,
  };
}

export function managerFinding(deployment: ManagerDeployment, pods: number): ManagerFinding {
  const recorded = Number(deployment.metadata.annotations?.[REPLICAS_BEFORE_MIGRATION_ANNOTATION] ?? Number.NaN);
  return {
    name: deployment.metadata.name,
    uid: deployment.metadata.uid,
    resourceVersion: deployment.metadata.resourceVersion,
    replicas: deployment.spec.replicas,
    selector: labelSelectorToString(deployment.spec.selector),
    pods,
    recordedReplicas: Number.isSafeInteger(recorded) && recorded > 0 ? recorded : undefined,
  };
}

export function daemonFinding(daemonSet: DaemonSet): DaemonFinding {
  return { name: daemonSet.metadata.name, pods: daemonSet.status?.desiredNumberScheduled ?? 0 };
}

/** Whether any of OpenKruise is left: its webhook configurations, its manager, or a CRD it converts. */
export function anythingOfOpenKruise(findings: Findings): boolean {
  return (
    findings.configurations.length > 0 ||
    findings.manager !== undefined ||
    findings.daemon !== undefined ||
    findings.crds.some((crd) => crd.convertedByOpenKruise)
  );
}
