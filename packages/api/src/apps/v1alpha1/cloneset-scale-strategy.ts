/**
 * CloneSetScaleStrategy: which pods to delete first and how fast to scale up.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import { intOrPercentSchema } from '../../meta/int-or-string.ts';

/** How a CloneSet creates and deletes pods. */
export const cloneSetScaleStrategySchema = z.looseObject({
  podsToDelete: withCrdMeta(z.array(z.string()), {
    description:
      'Names of pods to delete first. The controller removes names of pods that no longer exist. A set: duplicates are rejected and server-side apply merges entries.',
    listType: 'set',
  }).optional(),
  maxUnavailable: intOrPercentSchema({
    path: 'spec.scaleStrategy.maxUnavailable',
    description:
      'Most pods that may be unavailable while scaling up: an integer or a percentage of replicas rounded up. Unset means no limit.',
  }).optional(),
  disablePVCReuse: withDescription(
    z.boolean(),
    'Delete the PVCs of a deleted pod instead of reusing them for its replacement.',
  ).optional(),
});
/** The scale strategy. */
export type CloneSetScaleStrategy = z.infer<typeof cloneSetScaleStrategySchema>;
