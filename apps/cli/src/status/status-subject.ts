/**
 * What `rollout status` reads of the four kinds: the generation, the strategy's partition and pause,
 * and the status counts and conditions. Checked when it arrives; everything else is ignored.
 */
import { defineResource } from '@kruise-ts/controller-runtime';
import type { ResourceType } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

import type { Kind } from '../resources/kinds.ts';
import { parseWith } from '../resources/resource-types.ts';

const count = z.int().exactOptional();
const intOrString = z.union([z.int(), z.string()]).exactOptional();

const conditionSchema = z.looseObject({
  type: z.string(),
  status: z.string(),
  reason: z.string().exactOptional(),
  message: z.string().exactOptional(),
});

export type StatusCondition = z.infer<typeof conditionSchema>;

const strategySchema = z.looseObject({
  // CloneSet and SidecarSet.
  paused: z.boolean().exactOptional(),
  partition: intOrString,
  // Advanced StatefulSet.
  rollingUpdate: z.looseObject({ paused: z.boolean().exactOptional(), partition: count }).exactOptional(),
});

const statusSchema = z.looseObject({
  observedGeneration: count,
  conditions: z.array(conditionSchema).exactOptional(),
  // CloneSet and Advanced StatefulSet.
  replicas: count,
  readyReplicas: count,
  availableReplicas: count,
  updatedReplicas: count,
  updatedReadyReplicas: count,
  currentRevision: z.string().exactOptional(),
  updateRevision: z.string().exactOptional(),
  labelSelector: z.string().exactOptional(),
  // SidecarSet.
  matchedPods: count,
  updatedPods: count,
  readyPods: count,
  updatedReadyPods: count,
  // BroadcastJob.
  active: count,
  succeeded: count,
  failed: count,
  desired: count,
  phase: z.string().exactOptional(),
});

export const statusSubjectSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), uid: z.string(), generation: count }),
  spec: z.looseObject({
    replicas: count,
    updateStrategy: strategySchema.exactOptional(),
    // BroadcastJob.
    paused: z.boolean().exactOptional(),
  }),
  status: statusSchema.exactOptional(),
});

/** A workload as `rollout status` sees it. */
export type StatusSubject = z.infer<typeof statusSubjectSchema>;
export type SubjectStatus = z.infer<typeof statusSchema>;

/** The kind's resource, parsing to what `rollout status` reads; SidecarSets are cluster-scoped. */
export function statusSubjectResource(kind: Kind): ResourceType<StatusSubject> {
  return defineResource<StatusSubject>({
    group: kind.group,
    version: kind.version,
    plural: kind.plural,
    kind: kind.kind,
    namespaced: kind.id !== 'sidecarset',
    parse: parseWith(statusSubjectSchema, `${kind.plural}.${kind.group}`),
  });
}

const podSchema = z.looseObject({
  metadata: z.looseObject({
    name: z.string(),
    deletionTimestamp: z.string().exactOptional(),
    labels: z.record(z.string(), z.string()).exactOptional(),
    ownerReferences: z
      .array(
        z.looseObject({
          apiVersion: z.string(),
          kind: z.string(),
          name: z.string(),
          uid: z.string(),
          controller: z.boolean().exactOptional(),
        }),
      )
      .exactOptional(),
  }),
  status: z
    .looseObject({ phase: z.string().exactOptional(), conditions: z.array(conditionSchema).exactOptional() })
    .exactOptional(),
});

/** A pod, as far as telling whether it is in flight goes. */
export type FlightPod = z.infer<typeof podSchema>;

export const flightPodResource: ResourceType<FlightPod> = defineResource<FlightPod>({
  group: '',
  version: 'v1',
  plural: 'pods',
  kind: 'Pod',
  namespaced: true,
  parse: parseWith(podSchema, 'pods'),
});
