/**
 * The Deployment and CloneSet as `migrate` reads them, checked when they arrive from the API server
 * (loose objects: the template and everything else are kept as they came, to be copied whole).
 */
import { defineResource } from '@kruise-ts/controller-runtime';
import type { KubeObject, ResourceType } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

const stringMap = z.record(z.string(), z.string());
/** maxSurge and maxUnavailable: a count or a percentage ("25%"). */
const intOrPercent = z.union([z.int(), z.string()]);

const templateSchema = z.looseObject({
  metadata: z.looseObject({ labels: stringMap.exactOptional() }).exactOptional(),
  spec: z.looseObject({ containers: z.array(z.looseObject({ name: z.string(), image: z.string().exactOptional() })) }),
});

const replicaStatusSchema = z.looseObject({
  observedGeneration: z.int().exactOptional(),
  replicas: z.int().exactOptional(),
  updatedReplicas: z.int().exactOptional(),
  readyReplicas: z.int().exactOptional(),
  availableReplicas: z.int().exactOptional(),
});

const objectMetaSchema = z.looseObject({
  name: z.string(),
  namespace: z.string().exactOptional(),
  uid: z.string(),
  generation: z.int().exactOptional(),
  labels: stringMap.exactOptional(),
  annotations: stringMap.exactOptional(),
});

export const deploymentSchema = z.looseObject({
  metadata: objectMetaSchema,
  spec: z.looseObject({
    // The API server defaults it to 1; absent only on objects that did not come from one.
    replicas: z.int().default(1),
    selector: z.looseObject({
      matchLabels: stringMap.exactOptional(),
      matchExpressions: z
        .array(z.looseObject({ key: z.string(), operator: z.string(), values: z.array(z.string()).exactOptional() }))
        .exactOptional(),
    }),
    template: templateSchema,
    minReadySeconds: z.int().exactOptional(),
    revisionHistoryLimit: z.int().exactOptional(),
    progressDeadlineSeconds: z.int().exactOptional(),
    paused: z.boolean().exactOptional(),
    strategy: z
      .looseObject({
        type: z.string().exactOptional(),
        rollingUpdate: z
          .looseObject({ maxSurge: intOrPercent.exactOptional(), maxUnavailable: intOrPercent.exactOptional() })
          .exactOptional(),
      })
      .exactOptional(),
  }),
  status: replicaStatusSchema.exactOptional(),
});

export type Deployment = z.output<typeof deploymentSchema>;
export type PodTemplate = z.output<typeof templateSchema>;
export type LabelSelector = Deployment['spec']['selector'];

export const cloneSetObjectSchema = z.looseObject({
  metadata: objectMetaSchema,
  spec: z.looseObject({ replicas: z.int().default(1) }),
  status: replicaStatusSchema.exactOptional(),
});

/** A CloneSet as read back: its record of the migration, its replicas and their progress. */
export type CloneSetObject = z.output<typeof cloneSetObjectSchema>;

export const deploymentResource: ResourceType<Deployment> = defineResource<Deployment>({
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
  namespaced: true,
  parse: parseWith(deploymentSchema, 'deployments.apps'),
});

export const cloneSetObjectResource: ResourceType<CloneSetObject> = defineResource<CloneSetObject>({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'clonesets',
  kind: 'CloneSet',
  namespaced: true,
  parse: parseWith(cloneSetObjectSchema, 'clonesets.apps.kruise.io'),
});

/** The CloneSet `migrate` creates; what the API server answers is read back through cloneSetObjectResource. */
export interface CloneSetManifest extends KubeObject {
  readonly apiVersion: 'apps.kruise.io/v1alpha1';
  readonly kind: 'CloneSet';
  readonly metadata: {
    readonly name: string;
    readonly namespace: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations: Readonly<Record<string, string>>;
  };
  readonly spec: CloneSetManifestSpec;
}

export interface CloneSetManifestSpec {
  readonly replicas: number;
  readonly selector: LabelSelector;
  readonly template: PodTemplate;
  readonly minReadySeconds?: number;
  readonly revisionHistoryLimit?: number;
  readonly progressDeadlineSeconds?: number;
  readonly updateStrategy: {
    readonly type: 'ReCreate';
    readonly maxSurge?: number | string;
    readonly maxUnavailable?: number | string;
  };
}

export const cloneSetManifestResource: ResourceType<CloneSetManifest> = defineResource<CloneSetManifest>({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'clonesets',
  kind: 'CloneSet',
  namespaced: true,
});

function parseWith<T>(schema: z.ZodType<T>, what: string): (raw: unknown) => T {
  return (raw) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      throw new Error(`the API server sent ${what} of an unexpected shape: ${problems}`);
    }
    return parsed.data;
  };
}
