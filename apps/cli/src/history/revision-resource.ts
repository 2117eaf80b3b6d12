/**
 * The ControllerRevisions a CloneSet or Advanced StatefulSet keeps its pod templates in, and the
 * workload's selector they are listed by: checked when they arrive from the API server, like the
 * workloads (see resources/workload-object.ts). `data` stays unknown here; the revision package reads it.
 */
import { defineResource } from '@kruise-ts/controller-runtime';
import type { ResourceType } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

const stringMap = z.record(z.string(), z.string());

const ownerReferenceSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().exactOptional(),
});

export const revisionObjectSchema = z.looseObject({
  metadata: z.looseObject({
    name: z.string(),
    namespace: z.string().exactOptional(),
    creationTimestamp: z.string().exactOptional(),
    labels: stringMap.exactOptional(),
    annotations: stringMap.exactOptional(),
    ownerReferences: z.array(ownerReferenceSchema).exactOptional(),
  }),
  revision: z.int(),
  data: z.unknown(),
});

/** A ControllerRevision as the history commands see it. */
export type RevisionObject = z.infer<typeof revisionObjectSchema>;

export const controllerRevisions: ResourceType<RevisionObject> = defineResource<RevisionObject>({
  group: 'apps',
  version: 'v1',
  plural: 'controllerrevisions',
  kind: 'ControllerRevision',
  namespaced: true,
  parse: (raw) => {
    const parsed = revisionObjectSchema.safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      throw new Error(`the API server sent controllerrevisions.apps of an unexpected shape: ${problems}`);
    }
    return parsed.data;
  },
});

const selectorRequirementSchema = z.looseObject({
  key: z.string(),
  operator: z.string(),
  values: z.array(z.string()).exactOptional(),
});

/** `spec.selector` of the workload, which its revisions carry as labels. */
export const labelSelectorSchema = z.looseObject({
  matchLabels: stringMap.exactOptional(),
  matchExpressions: z.array(selectorRequirementSchema).exactOptional(),
});
