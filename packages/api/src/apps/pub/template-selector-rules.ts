/**
 * CEL rules on a workload spec (`self` is the spec) that its selector matches its pod template's labels,
 * with Kubernetes' selector semantics, as OpenKruise's webhooks check for CloneSet and StatefulSet.
 */
import type { CelValidationRule } from '../../crd/schema-metadata.ts';

const HAS_TEMPLATE_LABELS = '(has(self.template.metadata) && has(self.template.metadata.labels))';
const TEMPLATE_LABELS = 'self.template.metadata.labels';

/**
 * `value` (an int-or-percent CEL expression) resolves to less than 1 against replicas > 0. Percentages
 * are rounded up (ceil(p * replicas / 100)), so a percentage is below 1 exactly when it is 0: it has no
 * non-zero digit. Integers are compared directly.
 */
export function resolvesBelowOne(value: string): string {
  return `(type(${value}) == int ? ${value} < 1 : !${value}.matches('[1-9]'))`;
}

/** The template carries label `key` (a CEL expression). */
function templateHasLabel(key: string): string {
  return `(${HAS_TEMPLATE_LABELS} && ${key} in ${TEMPLATE_LABELS})`;
}

const SELECTOR_MISMATCH = 'spec.template.metadata.labels: `selector` does not match template `labels`';

/** matchLabels: every pair must be a template label with the same value. */
export const selectorMatchLabelsRule: CelValidationRule = {
  rule: `!has(self.selector) || !has(self.selector.matchLabels) || self.selector.matchLabels.all(k, ${templateHasLabel('k')} && ${TEMPLATE_LABELS}[k] == self.selector.matchLabels[k])`,
  message: SELECTOR_MISMATCH,
  fieldPath: '.template.metadata.labels',
};

/** matchExpressions: each requirement must hold for the template labels, with Kubernetes' semantics. */
export const selectorMatchExpressionsRule: CelValidationRule = {
  rule: [
    '!has(self.selector) || !has(self.selector.matchExpressions) || self.selector.matchExpressions.all(e,',
    `e.operator == 'In' ? (${templateHasLabel('e.key')} && has(e.values) && ${TEMPLATE_LABELS}[e.key] in e.values) :`,
    `e.operator == 'NotIn' ? !(${templateHasLabel('e.key')} && has(e.values) && ${TEMPLATE_LABELS}[e.key] in e.values) :`,
    `e.operator == 'Exists' ? ${templateHasLabel('e.key')} : !${templateHasLabel('e.key')})`,
  ].join(' '),
  message: SELECTOR_MISMATCH,
  fieldPath: '.template.metadata.labels',
};
