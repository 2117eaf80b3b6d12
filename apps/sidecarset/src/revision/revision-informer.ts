import { SIDECARSET_NAME_LABEL } from '@kruise-ts/api';
import type { ControllerRevision } from '@kruise-ts/api';
import type { Informer, Manager } from '@kruise-ts/controller-runtime';
import { controllerRevisionResource } from '@kruise-ts/revision';

/**
 * The cache of SidecarSet revisions, shared by the controller and the pod webhook: one namespace, only
 * objects labelled with a SidecarSet name (a workload's revisions in the same namespace stay out).
 */
export function sidecarSetRevisionInformer(manager: Manager, namespace: string): Informer<ControllerRevision> {
  return manager.informers.informerFor({
    resource: controllerRevisionResource,
    namespace,
    labelSelector: SIDECARSET_NAME_LABEL,
  });
}
