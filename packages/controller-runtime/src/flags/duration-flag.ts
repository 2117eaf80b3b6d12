import { z } from 'zod';

import { GoDurationError, parseGoDuration } from '../util/go-duration.ts';

/** Any duration Go's flag package takes (`1h30m`, `300ms`, `-1s`, `0`), as milliseconds. */
export const goDurationSchema = z.string().transform((text, context) => {
  try {
    return parseGoDuration(text.trim());
  } catch (error) {
    if (!(error instanceof GoDurationError)) {
      throw error;
    }
    context.addIssue({
      code: 'custom',
      message: `expected a duration such as 15s, 1h30m or 500ms, got ${JSON.stringify(text)} (${error.message})`,
    });
    return z.NEVER;
  }
});

/** A Go duration of 0 or more (a timeout, a period), as milliseconds. */
export const durationSchema = goDurationSchema.refine((milliseconds) => milliseconds >= 0, {
  message: 'expected a duration of 0 or more',
});
