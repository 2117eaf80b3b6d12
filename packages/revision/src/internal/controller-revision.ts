/**
 * ControllerRevision objects for a workload's pod template, shaped as k8s.io/kubernetes
 * pkg/controller/history NewControllerRevision and OpenKruise's NewRevision build them.
 */
import { CONTROLLER_REVISION_HASH_KEY } from '@kruise-ts/api';
import type { ControllerRevision, PodTemplateSpec } from '@kruise-ts/api';
import { defineResource } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, ResourceType } from '@kruise-ts/controller-runtime';

import { revisionData } from './revision-data.ts';
import { hashRevision, revisionName } from './revision-hash.ts';

/** apps/v1 controllerrevisions. */
export const controllerRevisionResource: ResourceType<ControllerRevision> = defineResource<ControllerRevision>({
  group: 'apps',
  version: 'v1',
  plural: 'controllerrevisions',
  kind: 'ControllerRevision',
  namespaced: true,
});

/** The workload that owns its revisions (a CloneSet, for instance). */
export interface RevisionOwner {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly apiVersion: string;
  readonly kind: string;
}

/** Inputs of {@link newControllerRevision}. */
export interface NewControllerRevisionOptions {
  readonly owner: RevisionOwner;
  readonly template: DeepReadonly<PodTemplateSpec>;
  /** Copied verbatim onto the revision (OpenKruise copies all CloneSet annotations). */
  readonly ownerAnnotations?: Readonly<Record<string, string>> | undefined;
  /** Status collisionCount; part of the hash so that a name collision can be escaped. */
  readonly collisionCount: number;
  /** The revision number (one more than the highest existing one). */
  readonly revision: number;
}

/**
 * The ControllerRevision OpenKruise would create for a template: named `<owner>-<hash>`, labelled with
 * the template labels and `controller.kubernetes.io/hash`, annotated with the owner's annotations, owned
 * by a controller reference, with `data` the parsed revision data (whose Go serialisation is the exact
 * text the hash was taken over).
 */
export function newControllerRevision(options: NewControllerRevisionOptions): ControllerRevision {
  const { owner, template } = options;
  const raw = revisionData(template);
  const hash = hashRevision(raw, options.collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(owner.name, hash),
      namespace: owner.namespace,
      labels: { ...template.metadata?.labels, [CONTROLLER_REVISION_HASH_KEY]: hash },
      annotations: { ...options.ownerAnnotations },
      ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true }],
    },
    data: JSON.parse(raw) as unknown,
    revision: options.revision,
  };
}
