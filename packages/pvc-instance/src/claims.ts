/**
 * Per-pod PersistentVolumeClaims built from a workload's volumeClaimTemplates: one claim per template
 * and pod identity, named `<template>-<owner>-<id>`, mounted into the pod under the template's name.
 * The identity is a CloneSet's instance id (also put on the claim as a label) or an Advanced
 * StatefulSet's ordinal (the name alone ties claim and pod, as in a StatefulSet).
 */
import type { OwnerReference, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { CLONESET_INSTANCE_ID_LABEL } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { instanceIdOf } from './instance-id.ts';

type PodSpec = NonNullable<Pod['spec']>;
type Volume = NonNullable<PodSpec['volumes']>[number];

/** Which pod the claims are for: two strategies of one naming scheme. */
export type ClaimIdentity =
  { readonly kind: 'instanceId'; readonly id: string } | { readonly kind: 'ordinal'; readonly ordinal: number };

/** The `<id>` part of the claim and pod names. */
export function identitySuffix(identity: ClaimIdentity): string {
  return identity.kind === 'instanceId' ? identity.id : String(identity.ordinal);
}

/** Options of {@link newClaims}. */
export interface NewClaimsForIdentityOptions {
  readonly owner: { readonly name: string; readonly namespace: string };
  readonly volumeClaimTemplates: readonly DeepReadonly<PersistentVolumeClaim>[];
  readonly identity: ClaimIdentity;
  /** The owner's `selector.matchLabels`, copied onto the claims (they win over template labels). */
  readonly selectorLabels: Readonly<Record<string, string>> | undefined;
  /** Appended to the template's owner references. */
  readonly ownerReferences: readonly OwnerReference[];
}

/** Options of {@link newClaimsForInstance}. */
export interface NewClaimsOptions {
  readonly owner: {
    readonly name: string;
    readonly namespace: string;
    /** The owner's controller reference, put on every claim so that claims are collected with it. */
    readonly controllerRef: OwnerReference;
  };
  readonly volumeClaimTemplates: readonly DeepReadonly<PersistentVolumeClaim>[];
  readonly instanceId: string;
  /** The owner's `selector.matchLabels`, copied onto the claims. */
  readonly selectorLabels: Readonly<Record<string, string>> | undefined;
}

/** Options of {@link attachClaimVolumes}. */
export interface AttachClaimVolumesOptions {
  readonly volumeClaimTemplates: readonly DeepReadonly<PersistentVolumeClaim>[];
  readonly ownerName: string;
  /** The pod's instance id or ordinal (see {@link identitySuffix}). */
  readonly id: string;
}

/** The claim name of template `vctName` for instance `instanceId` of `ownerName`: `data-web-x7k2p`. */
export function claimName(vctName: string, ownerName: string, instanceId: string): string {
  return `${vctName}-${ownerName}-${instanceId}`;
}

function templateName(template: DeepReadonly<PersistentVolumeClaim>): string {
  return template.metadata?.name ?? '';
}

function newClaim(
  options: NewClaimsForIdentityOptions,
  template: DeepReadonly<PersistentVolumeClaim>,
): PersistentVolumeClaim {
  const metadata = structuredClone(template.metadata ?? {}) as NonNullable<PersistentVolumeClaim['metadata']>;
  const { identity } = options;
  const identityLabels = identity.kind === 'instanceId' ? { [CLONESET_INSTANCE_ID_LABEL]: identity.id } : {};
  const ownerReferences = [...(metadata.ownerReferences ?? []), ...options.ownerReferences.map((ref) => ({ ...ref }))];
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      ...metadata,
      name: claimName(templateName(template), options.owner.name, identitySuffix(identity)),
      namespace: options.owner.namespace,
      labels: { ...metadata.labels, ...options.selectorLabels, ...identityLabels },
      ...(ownerReferences.length === 0 ? {} : { ownerReferences }),
    },
    ...(template.spec === undefined
      ? {}
      : { spec: structuredClone(template.spec) as NonNullable<PersistentVolumeClaim['spec']> }),
  };
}

/**
 * The claims of one instance, one per template: name `<template>-<owner>-<id>`, the owner's
 * namespace, labels = template labels + selector matchLabels + the instance-id label, the template's
 * other metadata and spec, and the owner's controller reference. Status is not copied.
 */
export function newClaimsForInstance(options: NewClaimsOptions): PersistentVolumeClaim[] {
  return newClaims({
    owner: options.owner,
    volumeClaimTemplates: options.volumeClaimTemplates,
    identity: { kind: 'instanceId', id: options.instanceId },
    selectorLabels: options.selectorLabels,
    ownerReferences: [options.owner.controllerRef],
  });
}

/**
 * The claims of one pod identity, one per template: name `<template>-<owner>-<id>`, labels = template
 * labels + selector matchLabels (+ the instance-id label for an instance id), the template's other
 * metadata and spec, and the given owner references after the template's. Status is not copied.
 */
export function newClaims(options: NewClaimsForIdentityOptions): PersistentVolumeClaim[] {
  return options.volumeClaimTemplates.map((template) => newClaim(options, template));
}

/**
 * The pod spec with one `persistentVolumeClaim` volume per template, named like the template and
 * pointing at the instance's claim; a template volume of the same name is replaced in place, other
 * volumes are kept, and claim volumes without a namesake are appended in template order.
 */
export function attachClaimVolumes(podSpec: DeepReadonly<PodSpec>, options: AttachClaimVolumesOptions): PodSpec {
  const spec = structuredClone(podSpec) as PodSpec;
  const claimVolumes = new Map<string, Volume>(
    options.volumeClaimTemplates.map((template) => [
      templateName(template),
      {
        name: templateName(template),
        persistentVolumeClaim: { claimName: claimName(templateName(template), options.ownerName, options.id) },
      },
    ]),
  );
  const existing = spec.volumes ?? [];
  const replaced = existing.map((volume) => claimVolumes.get(volume.name) ?? volume);
  const names = new Set(existing.map((volume) => volume.name));
  const appended = [...claimVolumes.values()].filter((volume) => !names.has(volume.name));
  const volumes = [...replaced, ...appended];
  return volumes.length === 0 ? spec : { ...spec, volumes };
}

/** The claims labelled with `instanceId`. */
export function pvcsOfInstance<T extends DeepReadonly<PersistentVolumeClaim>>(
  pvcs: readonly T[],
  instanceId: string,
): T[] {
  return pvcs.filter((pvc) => instanceIdOf(pvc) === instanceId);
}
