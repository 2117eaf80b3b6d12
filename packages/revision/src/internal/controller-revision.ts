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

/** A revision's content before it gets a name: its raw data (Go's bytes) and its labels. */
export interface RevisionCandidate {
  /** The data exactly as Go marshals it; hashed for the name and stored byte for byte. */
  readonly raw: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** A pod template's candidate: OpenKruise's template patch, labelled with the template's labels. */
export function templateCandidate(template: DeepReadonly<PodTemplateSpec>): RevisionCandidate {
  return { raw: revisionData(template), labels: { ...template.metadata?.labels } };
}

/** Inputs of {@link controllerRevisionFromCandidate}. */
export interface RevisionFromCandidateOptions {
  readonly owner: RevisionOwner;
  readonly candidate: RevisionCandidate;
  readonly ownerAnnotations?: Readonly<Record<string, string>> | undefined;
  readonly collisionCount: number;
  readonly revision: number;
}

/**
 * The ControllerRevision of a candidate as k8s.io/kubernetes history.NewControllerRevision builds it:
 * named `<owner>-<hash>` (the hash over the raw data and the collision count), labelled with the
 * candidate's labels and `controller.kubernetes.io/hash`, annotated with the owner's annotations, owned
 * by a controller reference, with `data` the parsed raw data. Any kind of owner: a workload's pod
 * template (newControllerRevision) or a SidecarSet's sidecars.
 */
export function controllerRevisionFromCandidate(options: RevisionFromCandidateOptions): ControllerRevision {
  const { owner, candidate } = options;
  const hash = hashRevision(candidate.raw, options.collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(owner.name, hash),
      namespace: owner.namespace,
      labels: { ...candidate.labels, [CONTROLLER_REVISION_HASH_KEY]: hash },
      annotations: { ...options.ownerAnnotations },
      ownerReferences: [
        {
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          name: owner.name,
          uid: owner.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data: JSON.parse(candidate.raw) as unknown,
    revision: options.revision,
  };
}

/**
 * The ControllerRevision OpenKruise would create for a template: named `<owner>-<hash>`, labelled with
 * the template labels and `controller.kubernetes.io/hash`, annotated with the owner's annotations, owned
 * by a controller reference, with `data` the parsed revision data (whose Go serialisation is the exact
 * text the hash was taken over).
 */
export function newControllerRevision(options: NewControllerRevisionOptions): ControllerRevision {
  const { template, ...rest } = options;
  return controllerRevisionFromCandidate({ ...rest, candidate: templateCandidate(template) });
}
