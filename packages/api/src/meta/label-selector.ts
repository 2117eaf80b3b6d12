/**
 * meta/v1 LabelSelector with the validation of Kubernetes' ValidateLabelSelector expressed in the CRD
 * (label key and value syntax, operators, values present exactly for In/NotIn), plus the size bounds
 * that let CEL rules iterate a selector within the API server's cost budget.
 */
import { z } from 'zod';

import { withCrdMeta } from '../crd/schema-metadata.ts';

/** At most this many matchLabels entries per selector (a CRD-only bound for the CEL cost estimate). */
export const MAX_SELECTOR_MATCH_LABELS = 64;
/** At most this many matchExpressions per selector. */
export const MAX_SELECTOR_MATCH_EXPRESSIONS = 64;
/** At most this many values per matchExpressions requirement. */
export const MAX_SELECTOR_REQUIREMENT_VALUES = 256;

/** A label value: at most 63 characters, alphanumeric at both ends, `-_.` inside; may be empty. */
export const LABEL_VALUE_PATTERN = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';

/**
 * A label key (qualified name): an optional DNS subdomain prefix and `/`, then a name of at most 63
 * characters. The prefix's own 253-character limit is approximated by the 317-character key limit.
 */
export const LABEL_KEY_PATTERN =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$';

/** Longest label key: 253 (prefix) + 1 (`/`) + 63 (name). */
export const MAX_LABEL_KEY_LENGTH = 317;

/** A label value as a string schema. */
export const labelValueSchema = z.string().max(63).regex(new RegExp(LABEL_VALUE_PATTERN));

/** A label key as a string schema. */
export const labelKeySchema = z.string().max(MAX_LABEL_KEY_LENGTH).regex(new RegExp(LABEL_KEY_PATTERN));

/** Operators of a label selector requirement. */
export const LabelSelectorOperator = {
  In: 'In',
  NotIn: 'NotIn',
  Exists: 'Exists',
  DoesNotExist: 'DoesNotExist',
} as const;
/** A label selector operator. */
export type LabelSelectorOperator = (typeof LabelSelectorOperator)[keyof typeof LabelSelectorOperator];

/** One matchExpressions entry. */
export const labelSelectorRequirementSchema = withCrdMeta(
  z.looseObject({
    key: withCrdMeta(labelKeySchema, { description: 'The label key the requirement applies to.' }),
    operator: withCrdMeta(z.enum(LabelSelectorOperator), {
      description: 'How the key relates to the values: In, NotIn, Exists or DoesNotExist.',
    }),
    values: withCrdMeta(z.array(labelValueSchema).max(MAX_SELECTOR_REQUIREMENT_VALUES), {
      description: 'Values for In and NotIn (non-empty); must be empty for Exists and DoesNotExist.',
      listType: 'atomic',
    }).optional(),
  }),
  {
    description: 'A requirement on one label key.',
    validations: [
      {
        rule: "self.operator == 'In' || self.operator == 'NotIn' ? has(self.values) && size(self.values) > 0 : !has(self.values) || size(self.values) == 0",
        message:
          'matchExpressions[].values: must be non-empty for operators In and NotIn, and empty for Exists and DoesNotExist',
        fieldPath: '.values',
      },
    ],
  },
);

/** The requirement type. */
export type LabelSelectorRequirement = z.infer<typeof labelSelectorRequirementSchema>;

/** A label query over a set of objects; matchLabels and matchExpressions are ANDed. */
export const labelSelectorSchema = withCrdMeta(
  z.looseObject({
    matchLabels: withCrdMeta(z.record(z.string(), labelValueSchema), {
      description: 'Labels that must all be present with exactly these values.',
      maxProperties: MAX_SELECTOR_MATCH_LABELS,
      validations: [
        {
          rule: `self.all(k, size(k) <= ${String(MAX_LABEL_KEY_LENGTH)} && k.matches('${LABEL_KEY_PATTERN}'))`,
          message:
            'matchLabels: every key must be a valid label key (an optional DNS subdomain prefix and "/", then a name of at most 63 characters)',
        },
      ],
    }).optional(),
    matchExpressions: withCrdMeta(z.array(labelSelectorRequirementSchema).max(MAX_SELECTOR_MATCH_EXPRESSIONS), {
      description: 'Requirements that must all hold.',
      listType: 'atomic',
    }).optional(),
  }),
  { description: 'A label query; an empty selector matches everything.', mapType: 'atomic' },
);

/** meta/v1 LabelSelector. */
export type LabelSelector = z.infer<typeof labelSelectorSchema>;

/** The CEL condition "this selector (at `selector`, a CEL expression) has at least one requirement". */
export function celSelectorIsNotEmpty(selector: string): string {
  return `(has(${selector}.matchLabels) && size(${selector}.matchLabels) > 0) || (has(${selector}.matchExpressions) && size(${selector}.matchExpressions) > 0)`;
}
