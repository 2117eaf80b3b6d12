/**
 * Pod lifecycle hooks shared by the apps.kruise.io workloads (apis/apps/pub lifecycle): hooks hold a
 * pod in a Preparing* state until users' controllers remove the hook labels or finalizers.
 */
import { z } from 'zod';

import { withDescription } from '../../crd/schema-metadata.ts';

/** Pod label holding the pod's lifecycle state. */
export const LIFECYCLE_STATE_LABEL = 'lifecycle.apps.kruise.io/state';
/** Pod annotation holding the time of the last lifecycle state change. */
export const LIFECYCLE_TIMESTAMP_ANNOTATION = 'lifecycle.apps.kruise.io/timestamp';

/** Values of the {@link LIFECYCLE_STATE_LABEL} label. */
export const LifecycleState = {
  /** Created but not yet available; becomes Normal once scheduled (or once the preNormal hook holds). */
  PreparingNormal: 'PreparingNormal',
  /** Required for a pod to count as available. */
  Normal: 'Normal',
  /** Selected for an in-place update, waiting for the inPlaceUpdate hook to be released. */
  PreparingUpdate: 'PreparingUpdate',
  /** Being updated in place. */
  Updating: 'Updating',
  /** Updated in place, waiting for the inPlaceUpdate hook to be put back. */
  Updated: 'Updated',
  /** Selected for deletion, waiting for the preDelete hook to be released. */
  PreparingDelete: 'PreparingDelete',
} as const;
/** A pod lifecycle state. */
export type LifecycleState = (typeof LifecycleState)[keyof typeof LifecycleState];

/** One hook: the pod is "hooked" while it carries any of these labels or finalizers. */
export const lifecycleHookSchema = z.looseObject({
  labelsHandler: withDescription(
    z.record(z.string(), z.string()),
    'Labels whose presence (with these values) holds the pod in the hook.',
  ).optional(),
  finalizersHandler: withDescription(
    z.array(z.string()),
    'Finalizers whose presence holds the pod in the hook.',
  ).optional(),
  markPodNotReady: withDescription(
    z.boolean(),
    'Set the KruisePodReady condition to False while the pod waits in PreparingDelete or PreparingUpdate (preDelete and inPlaceUpdate hooks only).',
  ).optional(),
});
/** A lifecycle hook. */
export type LifecycleHook = z.infer<typeof lifecycleHookSchema>;

/** The hooks of a workload's pods. */
export const lifecycleSchema = z.looseObject({
  preDelete: withDescription(lifecycleHookSchema, 'Hook before a pod is deleted.').optional(),
  inPlaceUpdate: withDescription(
    lifecycleHookSchema,
    'Hook before a pod is updated in place and after the update.',
  ).optional(),
  preNormal: withDescription(lifecycleHookSchema, 'Hook after a pod is created, before it becomes Normal.').optional(),
});
/** Lifecycle hooks of a workload. */
export type Lifecycle = z.infer<typeof lifecycleSchema>;
