/**
 * Per-pod PersistentVolumeClaims built from a workload's volumeClaimTemplates: one claim per template
 * and instance id, named `<template>-<owner>-<id>`, mounted into the pod under the template's name.
 */
import type { OwnerReference, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { CLONESET_INSTANCE_ID_LABEL } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { instanceIdOf } from './instance-id.ts';

type PodSpec = NonNullable<Pod['spec']>;
type Volume = NonNullable<PodSpec['volumes']>[number];

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
  readonly instanceId: string;
}

/** The claim name of template `vctName` for instance `instanceId` of `ownerName`: `data-web-x7k2p`. */
export function claimName(vctName: string, ownerName: string, instanceId: string): string {
  return `${vctName}-${ownerName}-${instanceId}`;
}

function templateName(template: DeepReadonly<PersistentVolumeClaim>): string {
  return template.metadata?.name ?? '';
}

function newClaim(options: NewClaimsOptions, template: DeepReadonly<PersistentVolumeClaim>): PersistentVolumeClaim {
  const metadata = structuredClone(template.metadata ?? {}) as NonNullable<PersistentVolumeClaim['metadata']>;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      ...metadata,
      name: claimName(templateName(template), options.owner.name, options.instanceId),
      namespace: options.owner.namespace,
      labels: { ...metadata.labels, ...options.selectorLabels, [CLONESET_INSTANCE_ID_LABEL]: options.instanceId },
      ownerReferences: [...(metadata.ownerReferences ?? []), { ...options.owner.controllerRef }],
    },
    ...(template.spec === undefined ? {} : { spec: structuredClone(template.spec) as NonNullable<PersistentVolumeClaim['spec']> }),
  };
}

/**
 * The claims of one instance, one per template: name `<template>-<owner>-<id>`, the owner's
 * namespace, labels = template labels + selector matchLabels + the instance-id label, the template's
 * other metadata and spec, and the owner's controller reference. Status is not copied.
 */
export function newClaimsForInstance(options: NewClaimsOptions): PersistentVolumeClaim[] {
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
      { name: templateName(template), persistentVolumeClaim: { claimName: claimName(templateName(template), options.ownerName, options.instanceId) } },
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
export function pvcsOfInstance<T extends DeepReadonly<PersistentVolumeClaim>>(pvcs: readonly T[], instanceId: string): T[] {
  return pvcs.filter((pvc) => instanceIdOf(pvc) === instanceId);
}
