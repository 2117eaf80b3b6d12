/**
 * `set image` in kubectl's syntax: `CONTAINER=IMAGE` pairs (`*=IMAGE` for every container), applied to
 * the pod template's init containers and containers as kubectl applies them.
 */
import type { JsonPatchOperation } from '@kruise-ts/controller-runtime';

import { PreconditionError, UsageError } from '../cli/cli-errors.ts';
import type { ContainerEntry, WorkloadObject } from '../resources/workload-object.ts';

export interface ImageUpdate {
  /** A container's name, or `*` for all of them. */
  readonly container: string;
  readonly image: string;
}

export interface SetImageArgs {
  /** The object: `TYPE/NAME` or `TYPE NAME`. */
  readonly objectArgs: readonly string[];
  readonly updates: readonly ImageUpdate[];
}

/** Splits the arguments as kubectl does: those with `=` are image updates, the rest name the object. */
export function splitSetImageArgs(args: readonly string[]): SetImageArgs {
  const updates = args.filter((arg) => arg.includes('=')).map(parseImageUpdate);
  if (updates.length === 0) {
    throw new UsageError('at least one image update is required', 'for example: set image clone/web nginx=nginx:1.27');
  }
  const seen = new Set<string>();
  for (const { container } of updates) {
    if (seen.has(container)) {
      throw new UsageError(`container ${JSON.stringify(container)} is given more than one image`);
    }
    seen.add(container);
  }
  return { objectArgs: args.filter((arg) => !arg.includes('=')), updates };
}

function parseImageUpdate(arg: string): ImageUpdate {
  const equals = arg.indexOf('=');
  const container = arg.slice(0, equals);
  const image = arg.slice(equals + 1);
  if (container === '' || image === '' || /\s/.test(image)) {
    throw new UsageError(`invalid image update ${JSON.stringify(arg)}: expected CONTAINER_NAME=IMAGE`);
  }
  return { container, image };
}

type ContainerList = 'initContainers' | 'containers';

/**
 * The JSON patch that sets the images: per changed container a test of its name at its index (a
 * template edited in between fails the patch instead of getting an image in the wrong container)
 * and the new image. Empty when every image is already as asked. A container that does not exist is
 * an error naming the ones that do, before anything is written.
 */
export function imagePatch(
  object: WorkloadObject,
  updates: readonly ImageUpdate[],
  objectName: string,
): JsonPatchOperation[] {
  const spec = object.spec.template.spec;
  const lists: readonly (readonly [ContainerList, readonly ContainerEntry[]])[] = [
    ['initContainers', spec.initContainers ?? []],
    ['containers', spec.containers],
  ];
  const names = lists.flatMap(([, containers]) => containers.map((container) => container.name));
  const unknown = updates.filter((update) => update.container !== '*' && !names.includes(update.container));
  if (unknown.length > 0) {
    const missing = unknown.map((update) => JSON.stringify(update.container)).join(', ');
    throw new PreconditionError(
      `unable to find container named ${missing} in ${objectName}; its containers are ${names.join(', ')}`,
    );
  }
  return lists.flatMap(([list, containers]) =>
    containers.flatMap((container, index) => containerOps(`/spec/template/spec/${list}/${index}`, container, updates)),
  );
}

function containerOps(path: string, container: ContainerEntry, updates: readonly ImageUpdate[]): JsonPatchOperation[] {
  // A container's own name wins over `*`.
  const image = (
    updates.find((update) => update.container === container.name) ?? updates.find((update) => update.container === '*')
  )?.image;
  if (image === undefined || image === container.image) {
    return [];
  }
  return [
    { op: 'test', path: `${path}/name`, value: container.name },
    { op: 'add', path: `${path}/image`, value: image },
  ];
}
