/**
 * A deeply read-only view of a value. Objects handed out by informer caches have this type: they are
 * shared by every reader, so a mutation would corrupt the cache for all of them (client-go's "NEVER
 * modify objects from the store"). Copy with `structuredClone` before changing anything.
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/** Freezes a value and everything reachable from it; used to catch cache mutations in tests. */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) {
      deepFreeze(child);
    }
  }
  return value as DeepReadonly<T>;
}
