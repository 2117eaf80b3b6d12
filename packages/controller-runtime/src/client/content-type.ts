/**
 * Which content type the client reads built-in kinds in. kube-controller-manager, the scheduler and
 * the kubelet read them in protobuf (`--kube-api-content-type`); so do we by default, for the kinds
 * kube-protobuf's tables cover (pods, nodes, PVCs, ControllerRevisions, namespaces, events), in gets,
 * lists and watches, and in the answers to writes of an object or its status. Custom resources are
 * served only as JSON, and the bodies of writes stay JSON (patches are JSON).
 */
import { decodeObject, PROTOBUF_KINDS, PROTOBUF_MEDIA_TYPE, PROTOBUF_WATCH_MEDIA_TYPE } from '@kruise-ts/kube-protobuf';
import type { FieldFilter } from '@kruise-ts/kube-protobuf';

import { apiVersionOf } from './resource-type.ts';
import type { ResourceType } from './resource-type.ts';

/** `protobuf`: built-in kinds are read in protobuf (the default); `json`: everything in JSON. */
export type ApiContentType = 'protobuf' | 'json';

/** A read the server may answer in protobuf, and how to decode it. */
export interface ProtobufRead {
  /** The resource, for errors and the decode error metric (`pods`, `controllerrevisions.apps`). */
  readonly resource: string;
  /** What the caller drops anyway (an informer's cache), skipped by the decoder. */
  readonly filter?: FieldFilter | undefined;
}

const CAPABLE = new Set(PROTOBUF_KINDS.map(([apiVersion, kind]) => `${apiVersion}/${kind}`));

const JSON_MEDIA_TYPE = 'application/json';

/** The resource's name for errors and metrics: the plural, with its group for a non-core one. */
export function resourceLabel(resource: Pick<ResourceType, 'group' | 'plural'>): string {
  return resource.group === '' ? resource.plural : `${resource.plural}.${resource.group}`;
}

/** How to decode a get, list or watch of the resource if answered in protobuf; undefined for kinds the tables do not cover. */
export function protobufRead(resource: ResourceType, filter: FieldFilter | undefined): ProtobufRead | undefined {
  if (!CAPABLE.has(`${apiVersionOf(resource)}/${resource.kind}`)) {
    return undefined;
  }
  const usable = filter !== undefined && filter.kind === resource.kind ? filter : undefined;
  return { resource: resourceLabel(resource), filter: usable };
}

/** The Accept header: protobuf first (JSON as the server's fallback) for a read that may be protobuf, else JSON. */
export function acceptHeader(contentType: ApiContentType, read: { verb: string; protobuf?: unknown }): string {
  if (contentType === 'json' || read.protobuf === undefined) {
    return JSON_MEDIA_TYPE;
  }
  const protobuf = read.verb === 'watch' ? PROTOBUF_WATCH_MEDIA_TYPE : PROTOBUF_MEDIA_TYPE;
  return `${protobuf}, ${JSON_MEDIA_TYPE}`;
}

/** Whether a response's Content-Type is Kubernetes protobuf (`;stream=watch` included). */
export function isProtobuf(contentType: string | null | undefined): boolean {
  return contentType?.startsWith(PROTOBUF_MEDIA_TYPE) === true;
}

/** Which read an answer belongs to: its path, and what protobuf decoding it asked for. */
export interface AnswerRead {
  readonly path: string;
  readonly protobuf?: ProtobufRead | undefined;
}

/** A successful protobuf answer decoded into what JSON.parse of its JSON gives; a DecodeError names the resource and offset. */
export function decodeProtobufAnswer(bytes: Uint8Array, read: AnswerRead): unknown {
  return decodeObject(bytes, { resource: read.protobuf?.resource ?? read.path, filter: read.protobuf?.filter });
}

/** An error answer's Status in protobuf as JSON text; empty when it does not decode (the error keeps its HTTP status). */
export function protobufStatusText(bytes: Uint8Array, read: AnswerRead): string {
  try {
    return JSON.stringify(decodeObject(bytes, { resource: read.protobuf?.resource ?? read.path }));
  } catch {
    return '';
  }
}
