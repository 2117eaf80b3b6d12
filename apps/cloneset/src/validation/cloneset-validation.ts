/**
 * How the CloneSet webhook validates: the object read with the API schema (defaults applied, as the
 * controller reads it), OpenKruise's InPlaceOnly update rule, and the dry runs of the pod and claims
 * (again only when the template, the claim templates or what shapes the pod changed).
 */
import type { CloneSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { admissionParser, inPlaceOnlyViolations } from '@kruise-ts/template-validation';
import type { WorkloadValidation } from '@kruise-ts/template-validation';

import { parseCloneSetObject } from '../cloneset-parse.ts';
import { cloneSetValidationTarget, isInPlaceOnly } from './validation-target.ts';
import type { PodShapeOptions } from './validation-target.ts';

const parse = admissionParser<CloneSet>('CloneSet', parseCloneSetObject);

/** The CloneSet kind's validation for the admission handler. */
export function cloneSetValidation(options: PodShapeOptions): WorkloadValidation<DeepReadonly<CloneSet>> {
  return {
    kind: 'CloneSet',
    parse,
    target: (cs) => cloneSetValidationTarget(cs, options),
    dryRunInputs: (cs) => [
      cs.metadata.name,
      cs.spec.template,
      cs.spec.volumeClaimTemplates,
      cs.spec.selector.matchLabels,
      cs.spec.updateStrategy.type,
      cs.spec.lifecycle,
    ],
    updateRules: (oldCs, cs) =>
      isInPlaceOnly(cs)
        ? inPlaceOnlyViolations(oldCs.spec.template.spec, cs.spec.template.spec, 'spec.template.spec')
        : [],
  };
}
