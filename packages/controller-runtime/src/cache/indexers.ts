import { controllerRef } from '../client/kube-object.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { IndexFunc } from './store.ts';

/** Index name under which `byControllerUid` files objects. */
export const CONTROLLER_UID_INDEX = 'controllerUid';

/** Files an object under the uid of its controller owner reference: "the pods of this CloneSet". */
export const byControllerUid: IndexFunc<KubeObject> = (object) => {
  const ref = controllerRef(object);
  return ref === undefined ? [] : [ref.uid];
};

/** Files an object under the value of one label (objects without the label are not indexed). */
export function byLabel(key: string): IndexFunc<KubeObject> {
  return (object) => {
    const value = object.metadata?.labels?.[key];
    return value === undefined ? [] : [value];
  };
}
