/**
 * Cross-field CEL rules of the v1beta1 StatefulSet spec (`self` is the spec): the checks of OpenKruise's
 * validating webhook (siblings spec §A.5) that need more than one field, each naming its field.
 */
import type { CelValidationRule } from '../../crd/schema-metadata.ts';
import { IN_PLACE_UPDATE_READY } from '../pub/in-place-update.ts';
import {
  resolvesBelowOne,
  selectorMatchExpressionsRule,
  selectorMatchLabelsRule,
} from '../pub/template-selector-rules.ts';

const PARALLEL = "(has(self.podManagementPolicy) && self.podManagementPolicy == 'Parallel')";
const ROLLING = 'has(self.updateStrategy) && has(self.updateStrategy.rollingUpdate)';

/** `value` must resolve to at least 1 and, without Parallel, be the integer 1. */
function maxUnavailableRules(value: string, guard: string, path: string): CelValidationRule[] {
  return [
    {
      rule: `!(${guard}) || !${resolvesBelowOne(value)}`,
      message: `${path}: must be greater than 0`,
      fieldPath: `.${path.replace(/^spec\./, '')}`,
    },
    {
      rule: `!(${guard}) || ${PARALLEL} || (type(${value}) == int && ${value} == 1)`,
      message: `${path}: can only work with Parallel PodManagementPolicyType`,
      fieldPath: `.${path.replace(/^spec\./, '')}`,
      reason: 'FieldValueForbidden',
    },
  ];
}

const scaleMaxUnavailable = maxUnavailableRules(
  'self.scaleStrategy.maxUnavailable',
  'has(self.scaleStrategy) && has(self.scaleStrategy.maxUnavailable)',
  'spec.scaleStrategy.maxUnavailable',
);

const updateMaxUnavailable = maxUnavailableRules(
  'self.updateStrategy.rollingUpdate.maxUnavailable',
  `${ROLLING} && has(self.updateStrategy.rollingUpdate.maxUnavailable)`,
  'spec.updateStrategy.rollingUpdate.maxUnavailable',
);

/** The in-place policies need the InPlaceUpdateReady readiness gate, or pods would restart in Service endpoints. */
const inPlaceReadinessGateRule: CelValidationRule = {
  rule: [
    `!(${ROLLING} && has(self.updateStrategy.rollingUpdate.podUpdatePolicy) && self.updateStrategy.rollingUpdate.podUpdatePolicy != 'ReCreate')`,
    `|| (has(self.template.spec) && has(self.template.spec.readinessGates) && self.template.spec.readinessGates.exists(g, g.conditionType == '${IN_PLACE_UPDATE_READY}'))`,
  ].join(' '),
  message: `spec.template.spec.readinessGates: must contain ${IN_PLACE_UPDATE_READY} when podUpdatePolicy is InPlaceIfPossible or InPlaceOnly`,
  fieldPath: '.template.spec.readinessGates',
  reason: 'FieldValueRequired',
};

/** Unordered (priority) updates are for Parallel sets only. */
const unorderedUpdateRule: CelValidationRule = {
  rule: `!(${ROLLING} && has(self.updateStrategy.rollingUpdate.unorderedUpdate)) || ${PARALLEL}`,
  message: 'spec.updateStrategy.rollingUpdate.unorderedUpdate: can only work with Parallel PodManagementPolicyType',
  fieldPath: '.updateStrategy.rollingUpdate.unorderedUpdate',
  reason: 'FieldValueForbidden',
};

/** A transition rule: an optional string field that cannot change once set, nor be added or removed. */
function immutable(field: string): CelValidationRule {
  return {
    rule: `has(self.${field}) == has(oldSelf.${field}) && (!has(self.${field}) || self.${field} == oldSelf.${field})`,
    message: `spec.${field}: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'lifecycle', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'volumeClaimTemplates', 'reserveOrdinals', 'volumeClaimUpdateStrategy', 'updateStrategy' and 'scaleStrategy' are forbidden`,
    fieldPath: `.${field}`,
    reason: 'FieldValueForbidden',
  };
}

/** All cross-field rules of the StatefulSet spec. */
export const statefulSetSpecRules: readonly CelValidationRule[] = [
  selectorMatchLabelsRule,
  selectorMatchExpressionsRule,
  ...scaleMaxUnavailable,
  ...updateMaxUnavailable,
  inPlaceReadinessGateRule,
  unorderedUpdateRule,
  immutable('serviceName'),
  immutable('podManagementPolicy'),
];
