/**
 * In-place update settings and pod condition types shared by the apps.kruise.io workloads
 * (apis/apps/pub inplace_update).
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import { intOrStringSchema } from '../../meta/int-or-string.ts';

/**
 * Readiness gate every in-place-updatable pod carries: its condition is False while the pod is being
 * updated in place, so the pod leaves Service endpoints first.
 */
export const IN_PLACE_UPDATE_READY = 'InPlaceUpdateReady';

/**
 * Readiness gate injected into pods of apps.kruise.io workloads: lifecycle hooks with markPodNotReady
 * set its condition False to drain traffic before deletion or update.
 */
export const KRUISE_POD_READY = 'KruisePodReady';

/** Settings of in-place updates. */
export const inPlaceUpdateStrategySchema = z.looseObject({
  gracePeriodSeconds: withDescription(
    z.int32().nonnegative(),
    'Seconds between marking the pod not ready and changing its images, so endpoints controllers can remove it first.',
  ).optional(),
  imagePreDownloadParallelism: withCrdMeta(intOrStringSchema, {
    description:
      'Parallelism of image pre-download (an integer). Stored only: kruise-ts does not pre-download images (OpenKruise reads this field in v1beta1 and the annotation apps.kruise.io/image-predownload-parallelism in v1alpha1).',
    validations: [
      {
        rule: 'type(self) == int && self >= 0',
        message: 'inPlaceUpdateStrategy.imagePreDownloadParallelism: must be a non-negative integer',
      },
    ],
  }).optional(),
  imagePreDownloadTimeoutSeconds: withDescription(
    z.int32().nonnegative(),
    'Timeout of each image pull. Stored only: kruise-ts does not pre-download images (OpenKruise reads this field in v1beta1 and the annotation apps.kruise.io/image-predownload-timeout-seconds in v1alpha1).',
  ).optional(),
  imagePreDownloadMinUpdatedReadyPods: withDescription(
    z.int32().nonnegative(),
    'Updated ready pods required before images are pre-downloaded. Stored only: kruise-ts does not pre-download images (OpenKruise reads this field in v1beta1 and the annotation apps.kruise.io/image-predownload-min-updated-ready-pods in v1alpha1).',
  ).optional(),
});
/** In-place update settings. */
export type InPlaceUpdateStrategy = z.infer<typeof inPlaceUpdateStrategySchema>;
