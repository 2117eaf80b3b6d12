/**
 * How the Advanced StatefulSet webhook validates: the object read with the API schema (defaults
 * applied, as the controller reads it), OpenKruise's InPlaceOnly update rule, and the dry runs of the
 * pod and claims (again only when what shapes them changed).
 */
import { APPS_KRUISE_IO_V1BETA1 } from '@kruise-ts/api';
import type { StatefulSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { admissionParser, inPlaceOnlyViolations } from '@kruise-ts/template-validation';
import type { WorkloadValidation } from '@kruise-ts/template-validation';

import { parseStatefulSet } from '../statefulset-resource.ts';
import { isInPlaceOnly, statefulSetValidationTarget, targetOrdinal } from './validation-target.ts';
import type { PodShapeOptions } from './validation-target.ts';

// Requests come in either served version (the webhook is registered for both); the app reads v1beta1.
const parse = admissionParser<StatefulSet>('StatefulSet', parseStatefulSet, APPS_KRUISE_IO_V1BETA1);

/** The Advanced StatefulSet kind's validation for the admission handler. */
export function statefulSetValidation(options: PodShapeOptions): WorkloadValidation<DeepReadonly<StatefulSet>> {
  return {
    kind: 'StatefulSet',
    parse,
    target: (set) => statefulSetValidationTarget(set, options),
    dryRunInputs: (set) => [
      set.metadata.name,
      set.spec.template,
      set.spec.volumeClaimTemplates,
      set.spec.selector.matchLabels,
      set.spec.serviceName,
      set.spec.lifecycle,
      targetOrdinal(set, options),
    ],
    updateRules: (oldSet, set) =>
      isInPlaceOnly(set)
        ? inPlaceOnlyViolations(oldSet.spec.template.spec, set.spec.template.spec, 'spec.template.spec')
        : [],
  };
}
