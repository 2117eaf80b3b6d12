import { DecodeError } from './decode-error.ts';
import type { FieldFilter } from './field-filter.ts';

export interface DecodeOptions {
  /** The resource read (`pods`, `nodes`, `pods default/web-0`), named by a {@link DecodeError}. */
  readonly resource?: string | undefined;
  /**
   * Skips what the filter leaves out (by the fields' lengths, building nothing) of objects of its kind
   * and of its List; objects of other kinds (an error's Status) are decoded whole.
   */
  readonly filter?: FieldFilter | undefined;
}

/**
 * Runs a decode so that only a DecodeError leaves it: anything else (which would be a bug, or the
 * stack running out) becomes one, so that a caller's handling of bad input covers it.
 */
export function guarded<T>(typeName: string, options: DecodeOptions, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof DecodeError) {
      throw error;
    }
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new DecodeError(
      `unexpected ${reason}`,
      { typeName, resource: options.resource, offset: -1 },
      { cause: error },
    );
  }
}
