/**
 * A changed container resource in the revision diff, with InPlaceWorkloadVerticalScaling
 * (OpenKruise's NativeVerticalUpdate.UpdateInplaceUpdateMetadata): only a `replace` of
 * `spec.containers[i].resources.(limits|requests).(cpu|memory)` with a valid quantity can be resized in
 * place; adding or removing a resource cannot.
 */
import type { PodTemplateSpec } from '@kruise-ts/api';
import { parseQuantityText } from '@kruise-ts/revision';

import { describePath } from './json-diff.ts';
import type { DiffOperation } from './json-diff.ts';
import type { ContainerResources } from './update-spec.ts';

const RESIZABLE: ReadonlySet<string> = new Set(['cpu', 'memory']);

interface ResourcePath {
  readonly container: string;
  readonly kind: 'limits' | 'requests';
  readonly name: string;
}

/** `spec.containers[i].resources.<limits|requests>.<name>` of an existing container, or undefined. */
function resourcePath(operation: DiffOperation, oldTemplate: PodTemplateSpec): ResourcePath | undefined {
  const [, , index, , kind, name] = operation.path;
  const container = typeof index === 'number' ? oldTemplate.spec?.containers[index] : undefined;
  const valid =
    operation.path.length === 6 &&
    container !== undefined &&
    (kind === 'limits' || kind === 'requests') &&
    typeof name === 'string';
  return valid ? { container: container.name, kind, name } : undefined;
}

function valueProblem(operation: DiffOperation, path: ResourcePath): string | undefined {
  if (operation.op !== 'replace') {
    return `${operation.op === 'add' ? 'added' : 'removed'} (resources can be changed in place, not added or removed)`;
  }
  if (typeof operation.value !== 'string' || parseQuantityText(operation.value) === undefined) {
    return 'changed to an invalid quantity';
  }
  return RESIZABLE.has(path.name) ? undefined : 'changed (only cpu and memory can be resized in place)';
}

/**
 * Records the new amount into `resources` (per container name) and returns undefined, or returns why
 * the operation cannot be done in place. The path must be exactly
 * `spec.containers[i].resources.<limits|requests>.<cpu|memory>`.
 */
export function resourceOperationProblem(
  operation: DiffOperation,
  oldTemplate: PodTemplateSpec,
  resources: Record<string, ContainerResources>,
): string | undefined {
  const where = describePath(operation.path);
  const path = resourcePath(operation, oldTemplate);
  if (path === undefined) {
    return `${where} changed`;
  }
  const problem = valueProblem(operation, path);
  if (problem !== undefined || typeof operation.value !== 'string') {
    return `${where} ${problem ?? 'changed'}`;
  }
  const current = resources[path.container] ?? {};
  resources[path.container] = { ...current, [path.kind]: { ...current[path.kind], [path.name]: operation.value } };
  return undefined;
}
