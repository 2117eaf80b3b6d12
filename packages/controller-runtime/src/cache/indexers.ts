import { controllerRef } from '../client/kube-object.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { IndexFunc } from './store.ts';

/** Index name under which `byControllerUid` files objects. */
export const CONTROLLER_UID_INDEX = 'controllerUid';

/** The `CONTROLLER_UID_INDEX` value of objects without a controller (no uid looks like it). */
export const NO_CONTROLLER = '<no controller>';

/**
 * Files an object under the uid of its controller owner reference ("the pods of this workload"), and
 * orphans under `NO_CONTROLLER`, so that finding the orphans a workload may adopt does not scan every
 * object of the namespace on every reconcile.
 */
export const byControllerUid: IndexFunc<KubeObject> = (object) => {
  const ref = controllerRef(object);
  return [ref === undefined ? NO_CONTROLLER : ref.uid];
};

/** Files an object under the value of one label (objects without the label are not indexed). */
export function byLabel(key: string): IndexFunc<KubeObject> {
  return (object) => {
    const value = object.metadata?.labels?.[key];
    return value === undefined ? [] : [value];
  };
}
