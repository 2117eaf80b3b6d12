/**
 * Every CloneSet example of the user's documents is accepted by the generated CRD, and what the example
 * sets is what the API server stores (see test/fixtures/seed-examples/README.md for how fragments are
 * completed).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';
import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load as parse } from 'js-yaml';

import type { Json, JsonObject } from '../support/cloneset-api.ts';
import { CLONESETS, installCloneSetCrd } from '../support/cloneset-api.ts';

const EXAMPLES_DIRECTORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/seed-examples');
const BASE_EXAMPLE = '003-L013.yaml';

/** Fields of spec an example sets that the API server drops (unknown fields outside preserve-unknown subtrees): 003-L110 sets spec.spec. */
const SPEC_FIELDS_PRUNED: Readonly<Record<string, readonly string[]>> = { '003-L110.yaml': ['spec'] };

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Lays `example` over `base`: objects merge, arrays and scalars of the example win, null (an elided value) keeps the base. */
function overlay(base: Json, example: Json): Json {
  if (example === null) {
    return structuredClone(base);
  }
  if (!isObject(example) || !isObject(base)) {
    return structuredClone(example);
  }
  const result: JsonObject = structuredClone(base);
  for (const [key, value] of Object.entries(example)) {
    result[key] = overlay(result[key] ?? null, value);
  }
  return result;
}

/** Parses an example as the document shows it; a bare `...` line is an elision marker, not YAML. */
async function readExample(fileName: string): Promise<JsonObject> {
  const text = await readFile(path.join(EXAMPLES_DIRECTORY, fileName), 'utf8');
  const withoutElisions = text
    .split('\n')
    .filter((line) => line.trim() !== '...')
    .join('\n');
  // json: a repeated key overrides (the docs' examples repeat some), as JSON.parse does.
  return parse(withoutElisions, { json: true }) as JsonObject;
}

/** The object to create: whole examples as they are, fragments over the base sample, spec fragments into spec. */
function toCloneSet(example: JsonObject, base: JsonObject): JsonObject {
  const asObject = example['kind'] === undefined ? { spec: example } : example;
  const spec = asObject['spec'];
  const complete =
    typeof asObject['metadata'] === 'object' &&
    isObject(spec) &&
    spec['selector'] !== undefined &&
    spec['template'] !== undefined;
  return (complete ? asObject : overlay(base, asObject)) as JsonObject;
}

/** What the API server must have stored: the example's spec and labels/annotations (status goes through its subresource). */
function expectedStored(cloneSet: JsonObject, fileName: string): JsonObject {
  const metadata = isObject(cloneSet['metadata']) ? cloneSet['metadata'] : {};
  const spec = isObject(cloneSet['spec']) ? structuredClone(cloneSet['spec']) : {};
  const specPruned = (SPEC_FIELDS_PRUNED[fileName] ?? []).filter((field) => field in spec);
  for (const field of specPruned) {
    Reflect.deleteProperty(spec, field);
  }
  const kept: JsonObject = {};
  for (const key of ['name', 'labels', 'annotations']) {
    const value = metadata[key];
    if (value !== undefined) {
      kept[key] = value;
    }
  }
  return { metadata: kept, spec };
}

describe('CloneSet examples of the user documents', async () => {
  const fileNames = (await readdir(EXAMPLES_DIRECTORY)).filter((name) => name.endsWith('.yaml')).sort();
  let api: CustomObjectsApi;
  let namespace: TestNamespace;
  let base: JsonObject;

  beforeAll(async () => {
    const kubeConfig = testKubeConfig();
    api = await installCloneSetCrd(kubeConfig);
    namespace = await createTestNamespace(kubeConfig, 'cloneset-seed-examples');
    base = await readExample(BASE_EXAMPLE);
  });

  afterAll(async () => {
    await namespace[Symbol.asyncDispose]();
  });

  it('finds the examples of documents 001, 003 and 004', () => {
    expect(fileNames.length).toBeGreaterThanOrEqual(35);
  });

  it.each(fileNames)('accepts %s unchanged', async (fileName) => {
    const cloneSet = toCloneSet(await readExample(fileName), base);
    const name = (cloneSet['metadata'] as { name: string }).name;
    const target = { ...CLONESETS, namespace: namespace.name };
    const stored: unknown = await api.createNamespacedCustomObject({ ...target, body: cloneSet });
    try {
      expect(stored).toMatchObject(expectedStored(cloneSet, fileName));
    } finally {
      // Several examples share a name (sample); each is created and deleted in turn.
      await api.deleteNamespacedCustomObject({ ...target, name });
    }
  });
});
