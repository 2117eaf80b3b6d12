/**
 * The pods/resize patch of an in-place vertical scaling (OpenKruise's GenerateResourcePatch): per
 * container only the cpu/memory amounts that differ from the pod's spec, merged by container name.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { quantitiesEqual } from '@kruise-ts/revision';

import type { ContainerResources } from './update-spec.ts';

const RESIZABLE: ReadonlySet<string> = new Set(['cpu', 'memory']);

function changedAmounts(
  current: Readonly<Record<string, string>> | undefined,
  wanted: Readonly<Record<string, string>> | undefined,
): Record<string, string> | undefined {
  const changed = Object.entries(wanted ?? {}).filter(
    ([name, value]) =>
      RESIZABLE.has(name) &&
      !(current !== undefined && Object.hasOwn(current, name) && quantitiesEqual(current[name] ?? '', value)),
  );
  return changed.length === 0 ? undefined : Object.fromEntries(changed);
}

/** The resize patch body, or undefined when the pod already has these resources. */
export function resizePatch(
  pod: DeepReadonly<Pod>,
  resources: Readonly<Record<string, ContainerResources>>,
): object | undefined {
  const containers = (pod.spec?.containers ?? []).flatMap((container) => {
    const wanted = Object.hasOwn(resources, container.name) ? resources[container.name] : undefined;
    const limits = changedAmounts(container.resources?.limits, wanted?.limits);
    const requests = changedAmounts(container.resources?.requests, wanted?.requests);
    if (limits === undefined && requests === undefined) {
      return [];
    }
    return [
      {
        name: container.name,
        resources: { ...(limits === undefined ? {} : { limits }), ...(requests === undefined ? {} : { requests }) },
      },
    ];
  });
  return containers.length === 0 ? undefined : { spec: { containers } };
}
