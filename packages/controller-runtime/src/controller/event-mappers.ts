import { controllerRef } from '../client/kube-object.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { Request } from '../reconcile/reconcile.ts';
import type { DeepReadonly } from '../util/deep-readonly.ts';

/** Maps a changed object to the requests it should trigger. */
export type RequestMapper<T> = (object: DeepReadonly<T>) => readonly Request[];

/** The object itself: for the controller's primary resource. */
export function requestForObject<T extends KubeObject>(): RequestMapper<T> {
  return (object) => [{ namespace: object.metadata?.namespace ?? '', name: object.metadata?.name ?? '' }];
}

/**
 * The object's controller, when it is of the given group and kind: for owned objects such as pods.
 * The group is compared without the version, so owner references written by any served version of the
 * owner (a controller may write v1beta1 where an older one wrote v1alpha1) are recognised.
 */
export function requestForControllerOwner<T extends KubeObject>(owner: {
  readonly group: string;
  readonly kind: string;
}): RequestMapper<T> {
  return (object) => {
    const ref = controllerRef(object);
    if (ref?.kind !== owner.kind || groupOf(ref.apiVersion) !== owner.group) {
      return [];
    }
    return [{ namespace: object.metadata?.namespace ?? '', name: ref.name }];
  };
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
