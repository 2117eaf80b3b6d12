/**
 * Update order by priority (apis/apps/pub update_priority): pods are updated by the sum of the weights
 * of the selectors they match, or by the number in a label value, but not both.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import { celSelectorIsNotEmpty, labelSelectorSchema } from '../../meta/label-selector.ts';

/**
 * At most this many weight terms: a CRD-only bound that keeps the CEL rules on each term's selector
 * within the API server's cost budget (100 is far above any practical use).
 */
export const MAX_WEIGHT_PRIORITY_TERMS = 100;

/** Orders pods by the integer found in the value of one label. */
export const updatePriorityOrderTermSchema = z.looseObject({
  orderedKey: withDescription(
    z.string().min(1),
    "Label key whose value's last integer orders the pods (5 in '5', 10 in 'sts-10').",
  ),
});
/** An order priority term. */
export type UpdatePriorityOrderTerm = z.infer<typeof updatePriorityOrderTermSchema>;

/** Adds `weight` to the priority of the pods matching `matchSelector`. */
export const updatePriorityWeightTermSchema = withCrdMeta(
  z.looseObject({
    weight: withDescription(z.int32().min(0).max(100), 'Weight added for pods matching the selector, 0 to 100.'),
    matchSelector: withDescription(labelSelectorSchema, 'Pods this term applies to; must not be empty.'),
  }),
  {
    validations: [
      {
        rule: celSelectorIsNotEmpty('self.matchSelector'),
        message: 'weightPriority[].matchSelector: selector can not be empty',
        fieldPath: '.matchSelector',
        reason: 'FieldValueRequired',
      },
    ],
  },
);
/** A weight priority term. */
export type UpdatePriorityWeightTerm = z.infer<typeof updatePriorityWeightTermSchema>;

/** Priority rules for choosing which pods to update first. */
export const updatePriorityStrategySchema = withCrdMeta(
  z.looseObject({
    orderPriority: withDescription(z.array(updatePriorityOrderTermSchema), 'Order terms, tried in turn.').optional(),
    weightPriority: withDescription(
      z.array(updatePriorityWeightTermSchema).max(MAX_WEIGHT_PRIORITY_TERMS),
      `Weight terms, summed per pod; at most ${String(MAX_WEIGHT_PRIORITY_TERMS)}.`,
    ).optional(),
  }),
  {
    validations: [
      {
        rule: '!(has(self.weightPriority) && size(self.weightPriority) > 0 && has(self.orderPriority) && size(self.orderPriority) > 0)',
        message: 'priorityStrategy: only one of weightPriority and orderPriority can be used',
      },
    ],
  },
);
/** The priority strategy. */
export type UpdatePriorityStrategy = z.infer<typeof updatePriorityStrategySchema>;
