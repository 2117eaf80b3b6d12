import { apiVersionOf } from '../client/resource-type.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { ResourceType } from '../client/resource-type.ts';

/** core/v1 ObjectReference: what an Event is about. */
export interface ObjectReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string | undefined;
  readonly uid?: string | undefined;
  readonly resourceVersion?: string | undefined;
}

/**
 * What a reconcile needs to report Events: the narrow side of `EventRecorder`, which sync steps
 * depend on so that unit tests can record Events in memory (`FakeEventRecorder`).
 */
export interface EventReporter {
  normal(object: ObjectReference, reason: string, message: string): void;
  warning(object: ObjectReference, reason: string, message: string): void;
}

/** The fields of a core/v1 Event the recorder writes. */
export interface EventLike {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: { readonly name?: string; readonly namespace?: string; readonly resourceVersion?: string };
  readonly involvedObject: ObjectReference;
  readonly reason?: string;
  readonly message?: string;
  readonly type?: string;
  readonly count?: number;
  readonly firstTimestamp?: string;
  readonly lastTimestamp?: string;
  readonly source?: { readonly component?: string; readonly host?: string };
  readonly reportingComponent?: string;
  readonly reportingInstance?: string;
}

/** The reference to an object of a known resource type (list items carry no apiVersion/kind). */
export function objectReference(resource: ResourceType, object: KubeObject): ObjectReference {
  return {
    apiVersion: apiVersionOf(resource),
    kind: resource.kind,
    name: object.metadata?.name ?? '',
    namespace: object.metadata?.namespace,
    uid: object.metadata?.uid,
    resourceVersion: object.metadata?.resourceVersion,
  };
}
