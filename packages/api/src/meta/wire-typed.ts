/**
 * Types a zod schema that checks only some fields of a large Kubernetes object as that whole object.
 */
import type { z } from 'zod';

/**
 * Returns `schema` typed as `z.ZodType<T, T>`. The schema validates the fields it declares (the ones CEL
 * rules and the controller rely on) and keeps every other field (it must be a loose object); the
 * remainder of `T` is trusted to the API server, which validates a pod template fully when the
 * controller creates pods from it. The runtime value is `schema` itself, so the CRD generator still
 * sees every declared field and rule.
 */
export function wireTyped<T>(schema: z.ZodType): z.ZodType<T, T> {
  return schema as unknown as z.ZodType<T, T>;
}
