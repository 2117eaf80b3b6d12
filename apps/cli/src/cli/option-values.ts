/**
 * Commander hands option values over untyped; they are checked here, where they enter the program.
 */
import { InvalidArgumentError } from 'commander';
import { z } from 'zod';

const globalFlagsSchema = z.object({
  kubeconfig: z.string().optional(),
  context: z.string().optional(),
  namespace: z.string().optional(),
});

export type GlobalFlags = z.infer<typeof globalFlagsSchema>;

/** The connection flags, wherever on the line they were given (`optsWithGlobals`). */
export function globalFlags(values: unknown): GlobalFlags {
  return globalFlagsSchema.parse(values);
}

const scaleOptionsSchema = z.object({ replicas: z.int().nonnegative(), delete: z.string().optional() });

export function scaleOptions(values: unknown): z.infer<typeof scaleOptionsSchema> {
  return scaleOptionsSchema.parse(values);
}

/** `--replicas`: a count, as kubectl takes it. */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('it must be a non-negative integer.');
  }
  return Number(value);
}

/** Commander's variadic arguments, as strings. */
export function stringArgs(values: unknown): string[] {
  return z.array(z.string()).parse(values);
}
