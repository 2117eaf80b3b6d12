/**
 * The API resources the commands call, each parsing what the server answers (see workload-object.ts):
 * an object that does not have the expected shape stops the command before it writes anything.
 */
import { defineResource } from '@kruise-ts/controller-runtime';
import type { ResourceType } from '@kruise-ts/controller-runtime';
import type { z } from 'zod';

import type { Kind } from './kinds.ts';
import { podObjectSchema, workloadObjectSchema } from './workload-object.ts';
import type { PodObject, WorkloadObject } from './workload-object.ts';

/** A CloneSet's or an Advanced StatefulSet's resource. */
export function workloadResource(kind: Kind): ResourceType<WorkloadObject> {
  return defineResource<WorkloadObject>({
    group: kind.group,
    version: kind.version,
    plural: kind.plural,
    kind: kind.kind,
    namespaced: true,
    parse: parseWith(workloadObjectSchema, `${kind.plural}.${kind.group}`),
  });
}

export const podResource: ResourceType<PodObject> = defineResource<PodObject>({
  group: '',
  version: 'v1',
  plural: 'pods',
  kind: 'Pod',
  namespaced: true,
  parse: parseWith(podObjectSchema, 'pods'),
});

/** A resource's parser: an answer of another shape is an error naming the fields. */
export function parseWith<T>(schema: z.ZodType<T>, what: string): (raw: unknown) => T {
  return (raw) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      throw new Error(`the API server sent ${what} of an unexpected shape: ${problems}`);
    }
    return parsed.data;
  };
}
