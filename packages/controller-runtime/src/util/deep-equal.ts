/**
 * Structural equality of JSON-like values: objects compare by keys regardless of order, arrays by
 * position, `undefined` members count as absent (as JSON drops them). Used to skip writes whose
 * result would equal what the API already has.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return false;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && arraysEqual(a, b);
  }
  return objectsEqual(a as Record<string, unknown>, b as Record<string, unknown>);
}

function arraysEqual(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
}

function objectsEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keysA = definedKeys(a);
  return (
    keysA.length === definedKeys(b).length && keysA.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]))
  );
}

function definedKeys(value: object): string[] {
  return Object.entries(value)
    .filter(([, member]) => member !== undefined)
    .map(([key]) => key);
}
