/**
 * Flags a command line may give under another program's names, so that a command line written for
 * that program keeps working instead of exiting with a usage error: each is either an alias of one
 * of our flags, or accepted and ignored (validated, with a warning saying so). The table itself is
 * an app's configuration (OpenKruise's lives in @kruise-ts/app-config); this is the mechanism.
 */
import type { z } from 'zod';

/** An OpenKruise flag that sets one of ours. */
export interface FlagAlias {
  readonly kind: 'alias';
  /** Our flag's name. */
  readonly to: string;
}

/** An OpenKruise flag that has no effect in kruise-ts. */
export interface IgnoredFlag {
  readonly kind: 'ignored';
  /** Whether the flag is a boolean (`--x`, `--x=false`) or takes a value (`--x=1`, `--x 1`). */
  readonly takes: 'boolean' | 'value';
  /** What its value must look like (a bad value is still a usage error naming the flag). */
  readonly schema?: z.ZodType;
  /** Why it has no effect and what to use instead. */
  readonly instead: string;
}

/** Flags accepted for compatibility, by name (without the dashes). */
export type FlagCompat = Readonly<Record<string, FlagAlias | IgnoredFlag>>;

/** One warning per compatibility flag on the command line: what it was taken as, or that it has no effect. */
export function compatibilityNotes(argv: readonly string[], compat: FlagCompat): string[] {
  const notes: string[] = [];
  for (const name of new Set(argv.flatMap((arg) => (arg.startsWith('--') ? [flagName(arg)] : [])))) {
    const entry = Object.hasOwn(compat, name) ? compat[name] : undefined;
    if (entry?.kind === 'alias') {
      notes.push(`--${name} is OpenKruise's name for --${entry.to}; it works, but --${entry.to} is the flag to use`);
    } else if (entry?.kind === 'ignored') {
      notes.push(`--${name} is accepted for compatibility with OpenKruise and has no effect: ${entry.instead}`);
    }
  }
  return notes;
}

/** `--name=value` or `--name` ⇒ `name`. */
export function flagName(arg: string): string {
  const equals = arg.indexOf('=');
  return arg.slice(2, equals < 0 ? undefined : equals);
}
