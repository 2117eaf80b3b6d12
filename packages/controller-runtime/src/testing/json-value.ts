/** JSON values as the fake API server stores them, and the deep copy every answer goes through. */
export { isJsonObject } from '../util/json-value.ts';
export type { JsonObject, JsonValue } from '../util/json-value.ts';

/** A deep copy through JSON, as an object would look after a round trip over HTTP (undefined members dropped). */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
