/** Safe reads of label maps (plain JSON objects, so `labels['constructor']` must not find Object's). */

/** The value of `key` in a label or annotation map, if it is set. */
export function labelValue(labels: Readonly<Record<string, string>> | undefined, key: string): string | undefined {
  return labels !== undefined && Object.hasOwn(labels, key) ? labels[key] : undefined;
}
