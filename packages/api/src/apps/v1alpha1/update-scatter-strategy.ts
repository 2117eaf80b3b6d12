/**
 * Scatter rules of an update (apis/apps/v1alpha1 scatter_strategy): pods with a given label key=value
 * are spread over the update order instead of being updated in one batch.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';

/** One label key=value whose pods are scattered. */
export const updateScatterTermSchema = z.looseObject({
  key: withDescription(z.string().min(1), 'Label key; must not be empty.'),
  value: withDescription(z.string(), 'Label value.'),
});
/** A scatter term. */
export type UpdateScatterTerm = z.infer<typeof updateScatterTermSchema>;

/**
 * The scatter terms. A list map keyed by key and value, so the API server rejects duplicate key=value
 * pairs (as OpenKruise's webhook does) and server-side apply merges terms instead of replacing the list.
 */
export const updateScatterStrategySchema = withCrdMeta(z.array(updateScatterTermSchema), {
  description: 'Label key=value pairs whose pods are scattered over the update order; use one term if possible.',
  listType: 'map',
  listMapKeys: ['key', 'value'],
});
/** The scatter strategy. */
export type UpdateScatterStrategy = z.infer<typeof updateScatterStrategySchema>;
