/**
 * Kubernetes objects as they travel as JSON. @kubernetes/client-node types its models for its own
 * (de)serialiser, which turns timestamps into Date; raw JSON from the API server (watch events, our own
 * fetch-based client, CRD objects) carries RFC 3339 strings instead. `Wire<T>` is the model with every
 * Date replaced by string, and the aliases below are the wire shapes the whole project shares.
 */
import type {
  CoreV1Event,
  V1ControllerRevision,
  V1Lease,
  V1Node,
  V1ObjectMeta,
  V1OwnerReference,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodTemplateSpec,
} from '@kubernetes/client-node';

type IsAny<T> = 0 extends 1 & T ? true : false;

/**
 * The JSON wire form of a client-node model: `Date` becomes `string`, recursively; `any` (free-form
 * fields such as managedFields[].fieldsV1) becomes `unknown`.
 */
export type Wire<T> =
  IsAny<T> extends true
    ? unknown
    : T extends Date
      ? string
      : T extends readonly (infer E)[]
        ? Wire<E>[]
        : T extends object
          ? { [K in keyof T]: Wire<T[K]> }
          : T;

/** core/v1 Pod as JSON. */
export type Pod = Wire<V1Pod>;
/** core/v1 PodTemplateSpec as JSON (metadata + spec of the pods a workload creates). */
export type PodTemplateSpec = Wire<V1PodTemplateSpec>;
/** core/v1 PersistentVolumeClaim as JSON. */
export type PersistentVolumeClaim = Wire<V1PersistentVolumeClaim>;
/** apps/v1 ControllerRevision as JSON. */
export type ControllerRevision = Wire<V1ControllerRevision>;
/** meta/v1 ObjectMeta as JSON. */
export type ObjectMeta = Wire<V1ObjectMeta>;
/** meta/v1 OwnerReference as JSON. */
export type OwnerReference = Wire<V1OwnerReference>;
/** coordination.k8s.io/v1 Lease as JSON. */
export type Lease = Wire<V1Lease>;
/** core/v1 Event (the one `kubectl describe` shows) as JSON. */
export type CoreEvent = Wire<CoreV1Event>;
/** core/v1 Node as JSON. */
export type Node = Wire<V1Node>;
