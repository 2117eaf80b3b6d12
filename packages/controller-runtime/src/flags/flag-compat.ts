/**
 * Flags a command line may give under another program's names, so that a command line written for
 * that program keeps working instead of exiting with a usage error: each is either an alias of one
 * of our flags, or accepted and ignored (validated, with a warning saying so). The table itself is
 * an app's configuration (OpenKruise's lives in @kruise-ts/app-config); this is the mechanism.
 */
import type { z } from 'zod';

/** Another program's flag that sets one of ours. */
export interface FlagAlias {
  readonly kind: 'alias';
  /** Our flag's name. */
  readonly to: string;
}

/** Another program's flag that has no effect here. */
export interface IgnoredFlag {
  readonly kind: 'ignored';
  /** Whether the flag is a boolean (`--x`, `--x=false`) or takes a value (`--x=1`, `--x 1`). */
  readonly takes: 'boolean' | 'value';
  /** What its value must look like (a bad value is still a usage error naming the flag). */
  readonly schema?: z.ZodType;
  /** Why it has no effect and what to use instead. */
  readonly instead: string;
}

/** Flags accepted for compatibility with another program, named in the messages. */
export interface FlagCompat {
  /** The program whose command lines these flags come from, as messages name it (`OpenKruise`). */
  readonly program: string;
  /** By name, without the dashes. */
  readonly flags: Readonly<Record<string, FlagAlias | IgnoredFlag>>;
}

/** No compatibility flags. */
export const NO_FLAG_COMPAT: FlagCompat = { program: '', flags: {} };

/** The compatibility entry of a flag name, if it has one. */
export function compatEntry(compat: FlagCompat, name: string): FlagAlias | IgnoredFlag | undefined {
  return Object.hasOwn(compat.flags, name) ? compat.flags[name] : undefined;
}

/** One warning per compatibility flag on the command line: what it was taken as, or that it has no effect. */
export function compatibilityNotes(argv: readonly string[], compat: FlagCompat): string[] {
  const notes: string[] = [];
  for (const name of new Set(argv.flatMap((arg) => (arg.startsWith('--') ? [flagName(arg)] : [])))) {
    const entry = compatEntry(compat, name);
    if (entry?.kind === 'alias') {
      notes.push(
        `--${name} is ${compat.program}'s name for --${entry.to}; it works, but --${entry.to} is the flag to use`,
      );
    } else if (entry?.kind === 'ignored') {
      notes.push(`--${name} is accepted for compatibility with ${compat.program} and has no effect: ${entry.instead}`);
    }
  }
  return notes;
}

/** `--name=value` or `--name` ⇒ `name`. */
export function flagName(arg: string): string {
  const equals = arg.indexOf('=');
  return arg.slice(2, equals < 0 ? undefined : equals);
}
