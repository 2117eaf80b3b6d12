/**
 * @kruise-ts/kube-protobuf: Kubernetes protobuf answers and watch streams decoded into the objects
 * JSON.parse of the API server's JSON gives, from wire tables generated from the k8s.io/api Go types.
 *
 * STOP: this file is the public API of the package.
 */
export { DecodeError } from './decode-error.ts';
export type { DecodeContext } from './decode-error.ts';
export type { DecodeOptions } from './guarded.ts';
export type { JsonObject } from './decode-message.ts';
export { decodeObject, PROTOBUF_MEDIA_TYPE } from './envelope.ts';
export { decodeWatchEvent } from './watch-event.ts';
export type { WatchEvent } from './watch-event.ts';
export { WatchFramer, PROTOBUF_WATCH_MEDIA_TYPE } from './watch-framer.ts';
export type { WatchFramerOptions } from './watch-framer.ts';
export { decodeWatchStream } from './watch-stream.ts';
export { PROTOBUF_KINDS } from './tables.ts';
export { compileFieldFilter } from './field-filter.ts';
export type { FieldFilter, FieldFilterMode } from './field-filter.ts';
export { applyFieldFilter } from './apply-field-filter.ts';
export { WIRE_TABLES_K8S_API_VERSION } from './wire-tables.generated.ts';
