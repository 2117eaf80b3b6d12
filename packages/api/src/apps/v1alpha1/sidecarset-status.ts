/**
 * SidecarSetStatus (v1alpha1, §B.3).
 */
import { z } from 'zod';

import { withDescription } from '../../crd/schema-metadata.ts';

const count = (description: string): z.ZodInt32 => withDescription(z.int32(), description);

/** What the controller observed of the pods the SidecarSet matches. */
export const sidecarSetStatusSchema = z.looseObject({
  observedGeneration: withDescription(z.int(), 'The generation the status was computed for.').optional(),
  matchedPods: count('Active pods the SidecarSet matches and has injected.').default(0),
  updatedPods: count('Of those, pods whose sidecars are at the current hash.').default(0),
  readyPods: count('Of those, pods that are ready with consistent sidecars.').default(0),
  updatedReadyPods: count('Pods both updated and ready.').optional(),
  latestRevision: withDescription(z.string(), 'Name of the latest ControllerRevision.').optional(),
  collisionCount: withDescription(z.int32(), 'Hash collisions met when naming revisions.').optional(),
  conditions: withDescription(
    z.array(
      z.looseObject({
        type: withDescription(
          z.string(),
          'Condition type: kruise-ts reports MissedInjection (pods created without their sidecars).',
        ),
        status: withDescription(z.string(), 'True, False or Unknown.'),
        lastTransitionTime: withDescription(z.string(), 'When the status last changed.').optional(),
        reason: withDescription(z.string(), 'Machine-readable reason.').optional(),
        message: withDescription(z.string(), 'Human-readable details.').optional(),
      }),
    ),
    'kruise-ts conditions (OpenKruise has none).',
  ).optional(),
});
/** The status as stored. */
export type SidecarSetStatus = z.output<typeof sidecarSetStatusSchema>;
