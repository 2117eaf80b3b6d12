/**
 * A strategic merge patch good enough for the core/v1 writes controllers make to pods and PVCs:
 * objects merge recursively and `null` deletes a member; lists with a patch merge key in the Kubernetes
 * types merge by that key (containers by name, conditions by type, readinessGates by conditionType,
 * ...), with `{ "$patch": "delete", <key>: ... }` removing an item; `finalizers` merge as a set; every
 * other list is replaced; `"$patch": "replace"` on an object replaces it. Known differences from the
 * API server, which reads the merge keys from the Go types of the resource: the keys here go by field
 * name alone, whatever the resource; `$setElementOrder/…` and `$retainKeys` are ignored (the merged
 * list keeps the current order, new items appended); `$deleteFromPrimitiveList/…` is not supported.
 */
import { isJsonObject } from './json-value.ts';
import type { JsonObject, JsonValue } from './json-value.ts';

/** Patch merge keys of list fields in core/v1 (field name → key). */
const MERGE_KEYS: Readonly<Record<string, string>> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  containerStatuses: 'name',
  initContainerStatuses: 'name',
  ephemeralContainerStatuses: 'name',
  conditions: 'type',
  readinessGates: 'conditionType',
  volumes: 'name',
  env: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
  ownerReferences: 'uid',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
};

/** Lists of primitives with `patchStrategy: merge`: a patch adds what is missing. */
const SET_LISTS: ReadonlySet<string> = new Set(['finalizers']);

function isDirective(key: string): boolean {
  return key.startsWith('$setElementOrder/') || key === '$retainKeys' || key === '$patch';
}

function withoutDirectives(value: JsonValue): JsonValue {
  if (Array.isArray(value)) {
    return value.map(withoutDirectives);
  }
  if (!isJsonObject(value)) {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !isDirective(key))
      .map(([key, member]) => [key, withoutDirectives(member)]),
  );
}

function mergeList(current: readonly JsonValue[], patch: readonly JsonValue[], mergeKey: string): JsonValue[] {
  const result = [...current];
  for (const item of patch) {
    const key = isJsonObject(item) ? item[mergeKey] : undefined;
    const position =
      key === undefined ? -1 : result.findIndex((existing) => isJsonObject(existing) && existing[mergeKey] === key);
    if (isJsonObject(item) && item['$patch'] === 'delete') {
      if (position >= 0) {
        result.splice(position, 1);
      }
    } else if (position >= 0) {
      result[position] = applyStrategicMergePatch(result[position], item);
    } else {
      result.push(withoutDirectives(item));
    }
  }
  return result;
}

function mergeMember(name: string, current: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (Array.isArray(patch)) {
    const mergeKey = MERGE_KEYS[name];
    if (mergeKey !== undefined && Array.isArray(current)) {
      return mergeList(current, patch, mergeKey);
    }
    if (SET_LISTS.has(name) && Array.isArray(current)) {
      return [
        ...current,
        ...patch.filter((item) => !current.some((existing) => JSON.stringify(existing) === JSON.stringify(item))),
      ];
    }
    return withoutDirectives(patch);
  }
  return isJsonObject(patch) ? applyStrategicMergePatch(current, patch) : patch;
}

/** `target` with the strategic merge `patch` applied; neither argument is modified. */
export function applyStrategicMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) {
    return patch;
  }
  if (patch['$patch'] === 'replace') {
    return withoutDirectives(patch);
  }
  const result: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (isDirective(key)) {
      continue;
    }
    if (value === null) {
      Reflect.deleteProperty(result, key);
    } else {
      result[key] = mergeMember(key, result[key], value);
    }
  }
  return result;
}
