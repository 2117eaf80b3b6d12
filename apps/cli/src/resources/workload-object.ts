/**
 * The part of a CloneSet or Advanced StatefulSet the commands read, checked when it arrives from the
 * API server. Everything else is kept as it came and never written back: commands send patches.
 */
import { z } from 'zod';

const stringMap = z.record(z.string(), z.string());

const containerSchema = z.looseObject({ name: z.string(), image: z.string().exactOptional() });

const workloadMetadataSchema = z.looseObject({
  name: z.string(),
  namespace: z.string().exactOptional(),
  uid: z.string(),
  resourceVersion: z.string(),
  annotations: stringMap.exactOptional(),
});

const updateStrategySchema = z.looseObject({
  type: z.string().exactOptional(),
  // CloneSet.
  paused: z.boolean().exactOptional(),
  // Advanced StatefulSet.
  rollingUpdate: z.looseObject({ paused: z.boolean().exactOptional() }).exactOptional(),
});

export const workloadObjectSchema = z.looseObject({
  apiVersion: z.string().exactOptional(),
  kind: z.string().exactOptional(),
  metadata: workloadMetadataSchema,
  spec: z.looseObject({
    replicas: z.int().exactOptional(),
    template: z.looseObject({
      metadata: z.looseObject({ annotations: stringMap.exactOptional() }).exactOptional(),
      spec: z.looseObject({
        containers: z.array(containerSchema),
        initContainers: z.array(containerSchema).exactOptional(),
      }),
    }),
    updateStrategy: updateStrategySchema.exactOptional(),
    // CloneSet.
    scaleStrategy: z.looseObject({ podsToDelete: z.array(z.string()).exactOptional() }).exactOptional(),
    // Advanced StatefulSet: an ordinal, or an inclusive range "a-b".
    reserveOrdinals: z.array(z.union([z.int(), z.string()])).exactOptional(),
  }),
});

/** A CloneSet or Advanced StatefulSet as the commands see it. */
export type WorkloadObject = z.infer<typeof workloadObjectSchema>;
export type ContainerEntry = z.infer<typeof containerSchema>;

const ownerReferenceSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().exactOptional(),
});

/** A pod: only who controls it matters here. */
export const podObjectSchema = z.looseObject({
  metadata: z.looseObject({
    name: z.string(),
    uid: z.string(),
    ownerReferences: z.array(ownerReferenceSchema).exactOptional(),
  }),
});

export type PodObject = z.infer<typeof podObjectSchema>;
