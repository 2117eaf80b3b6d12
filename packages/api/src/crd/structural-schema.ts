/**
 * Checks the rules that make an OpenAPI v3 schema "structural" in the sense of apiextensions.k8s.io/v1
 * (the API server refuses a CRD whose schema is not), so the generator fails before a cluster does.
 */
import type { OpenApiSchema } from './openapi-types.ts';

type NodeCheck = (node: OpenApiSchema, path: string) => readonly string[];

const SCALAR_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * Lists every structural-schema violation under `schema` as `path: problem`; empty when the schema is
 * structural. Checked: a type on every node (int-or-string and preserve-unknown nodes excepted, as
 * Kubernetes allows), no anyOf except the int-or-string form, items on arrays, properties and
 * additionalProperties not combined, and list/map extensions used as Kubernetes defines them.
 */
export function findStructuralViolations(schema: OpenApiSchema, path = ''): string[] {
  const here = path === '' ? '<root>' : path;
  const violations = nodeChecks.flatMap((check) => check(schema, here));
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    violations.push(...findStructuralViolations(child, `${path}.${name}`));
  }
  if (schema.additionalProperties !== undefined) {
    violations.push(...findStructuralViolations(schema.additionalProperties, `${path}[*]`));
  }
  if (schema.items !== undefined) {
    violations.push(...findStructuralViolations(schema.items, `${path}[*]`));
  }
  return violations;
}

/**
 * A node without a type is structural only as int-or-string (then it must not have one) or with
 * preserve-unknown-fields (any JSON value, narrowed by value validations such as a quantity's pattern).
 */
const checkType: NodeCheck = (node, path) => {
  if (node['x-kubernetes-int-or-string'] === true) {
    return node.type === undefined ? [] : [`${path}: an int-or-string node must not declare a type`];
  }
  const untypedAllowed = node['x-kubernetes-preserve-unknown-fields'] === true;
  return node.type === undefined && !untypedAllowed ? [`${path}: every node needs a type`] : [];
};

const checkAnyOf: NodeCheck = (node, path) => {
  if (node.anyOf === undefined) {
    return [];
  }
  const types = node.anyOf.map((branch) => branch.type).sort();
  const intOrString = node['x-kubernetes-int-or-string'] === true && types.join(',') === 'integer,string';
  return intOrString ? [] : [`${path}: anyOf is only allowed as the int-or-string form`];
};

const checkObject: NodeCheck = (node, path) => {
  const problems: string[] = [];
  if (node.properties !== undefined && node.additionalProperties !== undefined) {
    problems.push(`${path}: properties and additionalProperties cannot be combined`);
  }
  if (node.type !== 'object' && (node.properties !== undefined || node.additionalProperties !== undefined)) {
    problems.push(`${path}: properties need type object`);
  }
  return problems;
};

const checkArray: NodeCheck = (node, path) => {
  if (node.type === 'array' && node.items === undefined) {
    return [`${path}: an array needs items`];
  }
  if (node.type !== 'array' && node['x-kubernetes-list-type'] !== undefined) {
    return [`${path}: x-kubernetes-list-type needs type array`];
  }
  return [];
};

const checkListType: NodeCheck = (node, path) => {
  const listType = node['x-kubernetes-list-type'];
  const keys = node['x-kubernetes-list-map-keys'];
  if (listType !== 'map') {
    return keys === undefined
      ? checkSetItems(node, path)
      : [`${path}: x-kubernetes-list-map-keys needs x-kubernetes-list-type map`];
  }
  if (keys === undefined || keys.length === 0) {
    return [`${path}: a list of type map needs x-kubernetes-list-map-keys`];
  }
  const item = node.items;
  return keys.flatMap((key) => {
    const property = item?.properties?.[key];
    if (property === undefined || !SCALAR_TYPES.has(property.type ?? '')) {
      return [`${path}: map key '${key}' must be a scalar property of the items`];
    }
    const requiredOrDefaulted = (item?.required ?? []).includes(key) || property.default !== undefined;
    return requiredOrDefaulted ? [] : [`${path}: map key '${key}' must be required or defaulted`];
  });
};

function checkSetItems(node: OpenApiSchema, path: string): readonly string[] {
  if (node['x-kubernetes-list-type'] !== 'set') {
    return [];
  }
  return SCALAR_TYPES.has(node.items?.type ?? '') ? [] : [`${path}: a list of type set needs scalar items`];
}

const nodeChecks: readonly NodeCheck[] = [checkType, checkAnyOf, checkObject, checkArray, checkListType];
