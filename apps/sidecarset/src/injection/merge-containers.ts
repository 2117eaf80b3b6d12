/**
 * Where injected containers go among the pod's own (OpenKruise's mergeSidecarContainers): a sidecar
 * whose name the pod already has replaces that container in place; otherwise BeforeAppContainer
 * sidecars go before the pod's containers and the others after, each group in its given order.
 */
import type { Pod } from '@kruise-ts/api';

import type { InjectedContainer } from './build-sidecars.ts';

type PodContainer = NonNullable<Pod['spec']>['containers'][number];

/** The pod's containers with the sidecars merged in. */
export function mergeSidecarContainers(
  own: readonly PodContainer[],
  sidecars: readonly InjectedContainer[],
): PodContainer[] {
  const byName = new Map(sidecars.map((sidecar) => [sidecar.container.name, sidecar.container]));
  const replaced = own.map((container) => byName.get(container.name) ?? container);
  const ownNames = new Set(own.map((container) => container.name));
  const added = sidecars.filter((sidecar) => !ownNames.has(sidecar.container.name));
  const before = added.filter((sidecar) => sidecar.policy === 'BeforeAppContainer').map((sidecar) => sidecar.container);
  const after = added.filter((sidecar) => sidecar.policy !== 'BeforeAppContainer').map((sidecar) => sidecar.container);
  return [...before, ...replaced, ...after];
}
