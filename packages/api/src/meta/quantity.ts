/**
 * Kubernetes resource quantities (`resource.Quantity`: `cpu: 500m`, `memory: 1Gi`, `cpu: 0.5`) as the
 * fields of pod and PVC templates that carry them, checked in the CRD so that a quantity Go cannot read
 * (`cpu: one`) is refused at `kubectl apply` with the field named.
 *
 * Why not the Kubernetes CRD convention (`x-kubernetes-int-or-string: true`, `anyOf: [integer, string]`
 * and the pattern)? The API server then refuses every JSON number that is not an integer, `cpu: 0.5`
 * among them, which a Pod accepts (tried on v1.34: the Pod stores `500m`). A quantity node here has no
 * type instead (`x-kubernetes-preserve-unknown-fields: true`, which a structural schema allows in place
 * of a type) and only the pattern: JSON Schema applies `pattern` to strings alone, so any number passes,
 * as Go's `Quantity.UnmarshalJSON` reads any JSON number, and a string must be a quantity. CEL cannot
 * help: the API server refuses rules on a node without a type.
 */
import { z } from 'zod';

import { withCrdMeta } from '../crd/schema-metadata.ts';

/**
 * Kubernetes' quantity pattern (the format `resource.ParseQuantity` reads, which controller-gen puts on
 * every `resource.Quantity` field of a CRD): a signed decimal with an optional binary suffix (`Ki` ...
 * `Ei`), decimal suffix (`n`, `u`, `m`, `k`, `M` ... `E`) or decimal exponent (`e3`, `E-2`).
 */
export const QUANTITY_PATTERN = String.raw`^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`;

/**
 * {@link QUANTITY_PATTERN} with the spaces Go's decoder trims around a quantity string (`" 500m"` is
 * `500m` to a Pod). Only ASCII spaces: the Unicode spaces `strings.TrimSpace` also removes would make the
 * pattern the API server prints in its error unreadable, for values nobody writes.
 */
export const QUANTITY_STRING_PATTERN = `^ *${QUANTITY_PATTERN.slice(1, -1)} *$`;

/**
 * A quantity: any JSON number, a string in the format of {@link QUANTITY_STRING_PATTERN}, or null, which
 * Go reads as zero (a Pod stores `cpu: null` as `"0"`); nullable so that the API server keeps it as
 * written instead of dropping the entry.
 */
export const quantitySchema = withCrdMeta(
  z.union([z.number(), z.string().regex(new RegExp(QUANTITY_STRING_PATTERN))]).nullable(),
  {
    description: 'A resource.Quantity: a number, or a string such as "500m", "1Gi" or "0.5".',
    preserveUnknownFields: true,
    openApi: { pattern: QUANTITY_STRING_PATTERN },
  },
);

/** A Kubernetes resource quantity as JSON carries it. */
export type Quantity = z.infer<typeof quantitySchema>;

/** A core/v1 ResourceList (`requests`, `limits`): resource names to quantities. */
export const resourceListSchema = withCrdMeta(z.record(z.string(), quantitySchema), {
  description: 'Resource names (cpu, memory, storage, ...) to quantities.',
});
