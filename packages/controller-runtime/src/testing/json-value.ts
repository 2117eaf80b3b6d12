/** JSON values as the fake API server stores them, and the deep copy every answer goes through. */

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };
/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** Whether `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy through JSON, as an object would look after a round trip over HTTP (undefined members dropped). */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
