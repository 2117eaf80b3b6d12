/**
 * The pod template a revision stores, read for display: the parts `rollout history` prints, checked
 * with zod. A revision whose data cannot be read is reported as such rather than ending the listing.
 */
import { templateFromRevision } from '@kruise-ts/revision';
import { z } from 'zod';

import { withoutNulls } from './template-patch.ts';

const stringMap = z.record(z.string(), z.string());
const strings = z.array(z.string());

const containerSchema = z.looseObject({
  name: z.string(),
  image: z.string().exactOptional(),
  command: strings.exactOptional(),
  args: strings.exactOptional(),
  ports: z.array(z.looseObject({ containerPort: z.int(), protocol: z.string().exactOptional() })).exactOptional(),
  env: z
    .array(
      z.looseObject({
        name: z.string(),
        value: z.string().exactOptional(),
        valueFrom: z.record(z.string(), z.unknown()).exactOptional(),
      }),
    )
    .exactOptional(),
  volumeMounts: z
    .array(z.looseObject({ name: z.string(), mountPath: z.string(), readOnly: z.boolean().exactOptional() }))
    .exactOptional(),
});

export const templateViewSchema = z.looseObject({
  metadata: z
    .looseObject({ labels: stringMap.exactOptional(), annotations: stringMap.exactOptional() })
    .exactOptional(),
  spec: z.looseObject({
    serviceAccountName: z.string().exactOptional(),
    initContainers: z.array(containerSchema).exactOptional(),
    containers: z.array(containerSchema),
    volumes: z.array(z.looseObject({ name: z.string() })).exactOptional(),
  }),
});

export type TemplateView = z.infer<typeof templateViewSchema>;
export type ContainerView = z.infer<typeof containerSchema>;

/** The revision's template, or undefined when its data is not a pod template. */
export function revisionTemplate(revision: { readonly data?: unknown }): TemplateView | undefined {
  try {
    const parsed = templateViewSchema.safeParse(withoutNulls(templateFromRevision({ data: revision.data })));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
