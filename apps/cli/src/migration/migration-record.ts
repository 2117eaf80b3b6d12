/**
 * What a CloneSet made by `migrate` remembers of its migration, in one annotation: which Deployment
 * (by uid, so a Deployment deleted and created again under the same name is a stranger), how many
 * pods move, and the template copied. A run interrupted anywhere is resumed from it.
 */
import { createHash } from 'node:crypto';

import { z } from 'zod';

import type { Deployment, PodTemplate } from './objects.ts';

export const MIGRATION_ANNOTATION = 'kruise-ts.io/migrated-from';

const recordSchema = z.object({
  deployment: z.string(),
  uid: z.string(),
  replicas: z.int().positive(),
  templateHash: z.string(),
});

export type MigrationRecord = z.output<typeof recordSchema>;

export function recordOf(deployment: Deployment): MigrationRecord {
  return {
    deployment: deployment.metadata.name,
    uid: deployment.metadata.uid,
    replicas: deployment.spec.replicas,
    templateHash: templateHash(copiedTemplate(deployment.spec.template)),
  };
}

export function encodeRecord(record: MigrationRecord): string {
  return JSON.stringify(record);
}

/** The record of an annotation value; undefined when there is none or it is not ours. */
export function decodeRecord(value: string | undefined): MigrationRecord | undefined {
  if (value === undefined) {
    return undefined;
  }
  try {
    const parsed = recordSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Deployment's template as the CloneSet gets it. `creationTimestamp: null`, which the API server
 * writes into every template's metadata, is dropped: it means nothing in a template.
 */
export function copiedTemplate(template: PodTemplate): PodTemplate {
  const copy = structuredClone(template);
  if (copy.metadata !== undefined) {
    delete copy.metadata['creationTimestamp'];
  }
  return copy;
}

/** A digest of the template that does not depend on the order of its keys. */
export function templateHash(template: PodTemplate): string {
  return createHash('sha256').update(canonicalJson(template)).digest('hex').slice(0, 16);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
