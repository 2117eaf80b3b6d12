/**
 * How the SidecarSet webhook validates: the object read with the API schema (defaults applied, as the
 * controller and the pod webhook read it), and the dry run of its fake pod, again only when its
 * containers, init containers or volumes changed. No update rules: the CRD's CEL rules already hold
 * what may not change.
 */
import { APPS_KRUISE_IO_V1ALPHA1 } from '@kruise-ts/api';
import type { SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { admissionParser } from '@kruise-ts/template-validation';
import type { WorkloadValidation } from '@kruise-ts/template-validation';

import { parseSidecarSet } from '../sidecarset-resource.ts';
import { sidecarSetValidationTarget } from './validation-target.ts';
import type { SidecarSetValidationOptions } from './validation-target.ts';

// Requests come in either served version (the webhook is registered for both); the app reads v1alpha1.
const parse = admissionParser<SidecarSet>('SidecarSet', parseSidecarSet, APPS_KRUISE_IO_V1ALPHA1);

/** The SidecarSet kind's validation for the admission handler. */
export function sidecarSetValidation(
  options: SidecarSetValidationOptions,
): WorkloadValidation<DeepReadonly<SidecarSet>> {
  return {
    kind: 'SidecarSet',
    parse,
    target: (set) => sidecarSetValidationTarget(set, options),
    dryRunInputs: (set) => [set.spec.containers, set.spec.initContainers, set.spec.volumes],
  };
}
