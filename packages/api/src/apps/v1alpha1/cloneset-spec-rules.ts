/**
 * Cross-field CEL rules of CloneSetSpec: the checks of OpenKruise's validating webhook (spec §11.2) that
 * need more than one field. They are attached to the `spec` node, so `self` is the spec.
 *
 * Defaulting runs before validation, so replicas, updateStrategy, maxUnavailable and maxSurge are set
 * when these rules run; the rules still treat absence as the default to stay correct on their own.
 */
import type { CelValidationRule } from '../../crd/schema-metadata.ts';
import {
  resolvesBelowOne,
  selectorMatchExpressionsRule,
  selectorMatchLabelsRule,
} from '../pub/template-selector-rules.ts';

/** replicas as the webhook sees it (defaulted to 1). */
const REPLICAS = '(has(self.replicas) ? self.replicas : 1)';
/** progressDeadlineSeconds must exceed minReadySeconds, except the "no deadline" value MaxInt32. */
const progressDeadlineRule: CelValidationRule = {
  rule: '!has(self.progressDeadlineSeconds) || self.progressDeadlineSeconds == 2147483647 || self.progressDeadlineSeconds > (has(self.minReadySeconds) ? self.minReadySeconds : 0)',
  message: 'spec.progressDeadlineSeconds: must be greater than minReadySeconds',
  fieldPath: '.progressDeadlineSeconds',
};

/** InPlaceOnly never creates extra pods: maxSurge must resolve to 0. */
const inPlaceOnlyMaxSurgeRule: CelValidationRule = {
  rule: [
    "!(has(self.updateStrategy) && has(self.updateStrategy.type) && self.updateStrategy.type == 'InPlaceOnly' && has(self.updateStrategy.maxSurge)",
    `&& (type(self.updateStrategy.maxSurge) == int ? self.updateStrategy.maxSurge > 0 : ${REPLICAS} > 0 && self.updateStrategy.maxSurge.matches('[1-9]')))`,
  ].join(' '),
  message: 'spec.updateStrategy.maxSurge: can not use maxSurge with strategy type InPlaceOnly',
  fieldPath: '.updateStrategy.maxSurge',
  reason: 'FieldValueForbidden',
};

/**
 * With replicas > 0, maxUnavailable and maxSurge (both rounded up against replicas, as the webhook
 * resolves them) must not both be below 1, or an update could never make progress. An unset
 * maxUnavailable is its default, 20%; an unset maxSurge is 0.
 */
const progressPossibleRule: CelValidationRule = {
  rule: [
    `${REPLICAS} == 0 || !has(self.updateStrategy) || !(`,
    `(has(self.updateStrategy.maxUnavailable) && ${resolvesBelowOne('self.updateStrategy.maxUnavailable')})`,
    `&& (!has(self.updateStrategy.maxSurge) || ${resolvesBelowOne('self.updateStrategy.maxSurge')}))`,
  ].join(' '),
  message:
    'spec.updateStrategy.maxUnavailable: maxUnavailable and maxSurge should not both be less than 1 (0 or 0%) when replicas > 0',
  fieldPath: '.updateStrategy.maxUnavailable',
};

const CONTAINER_NAMES = (spec: string): string =>
  `(has(${spec}.template.spec) && has(${spec}.template.spec.containers) ? ${spec}.template.spec.containers.map(c, c.name) : [])`;

/**
 * InPlaceOnly allows only image changes in the pod spec (OpenKruise's webhook compares the whole
 * spec). The template is schemaless for CEL apart from container names, so this rule checks what it
 * can see: the containers keep their names and order. Other non-image changes are reported by the
 * controller (Event FailedUpdatePodInPlace, condition FailedUpdate) and never recreate a pod.
 * A transition rule: it runs on updates only.
 */
const inPlaceOnlyContainersRule: CelValidationRule = {
  rule: `!has(self.updateStrategy) || !has(self.updateStrategy.type) || self.updateStrategy.type != 'InPlaceOnly' || ${CONTAINER_NAMES('self')} == ${CONTAINER_NAMES('oldSelf')}`,
  message:
    'spec.template.spec.containers: only allowed to update images in spec for InPlaceOnly: containers cannot be added, removed, renamed or reordered',
  fieldPath: '.template.spec.containers',
  reason: 'FieldValueForbidden',
};

/** All cross-field rules of the CloneSet spec. */
export const cloneSetSpecRules: readonly CelValidationRule[] = [
  selectorMatchLabelsRule,
  selectorMatchExpressionsRule,
  progressDeadlineRule,
  inPlaceOnlyMaxSurgeRule,
  inPlaceOnlyContainersRule,
  progressPossibleRule,
];
