import { parseArgs } from 'node:util';

import { z } from 'zod';

import { durationSchema } from './duration-flag.ts';
import { compatEntry, flagName, NO_FLAG_COMPAT } from './flag-compat.ts';
import type { FlagCompat, IgnoredFlag } from './flag-compat.ts';

const BOOLEAN_FLAG_SCHEMAS = new WeakSet<z.ZodType>();

/** A rule between flags that one flag's schema cannot state: the problems of a parsed command line, each naming its flags. */
export type CrossFlagRule = (flags: Readonly<Record<string, unknown>>) => readonly string[];

const CROSS_FLAG_RULES = new WeakMap<z.ZodType, CrossFlagRule>();

/**
 * The flag `field`, whose `rule` `parseFlags` checks on every command line of a schema that has the
 * flag. On the flag, not on the schema: a zod object with refinements can no longer be `.extend()`ed.
 */
export function withCrossFlagRule<T extends z.ZodType>(field: T, rule: CrossFlagRule): T {
  CROSS_FLAG_RULES.set(field, rule);
  return field;
}

/** A boolean flag: `--flag`, `--flag=true` or `--flag=false`. */
export function booleanFlag(): z.ZodPipe<
  z.ZodEnum<{ true: 'true'; false: 'false' }>,
  z.ZodTransform<boolean, 'true' | 'false'>
> {
  const schema = z.enum(['true', 'false']).transform((value) => value === 'true');
  BOOLEAN_FLAG_SCHEMAS.add(schema);
  return schema;
}
/** A numeric flag: a number (`label`: "a number", "an integer") greater than 0, or of 0 or more. */
export const countFlag = (
  label: string,
  minimum: 'positive' | 'non-negative' = 'positive',
): z.ZodPipe<z.ZodString, z.ZodTransform<number, string>> =>
  z.string().transform((text, context) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0 || (value === 0 && minimum === 'positive')) {
      context.addIssue({
        code: 'custom',
        message: `expected ${label} ${minimum === 'positive' ? 'greater than 0' : 'of 0 or more'}, got ${JSON.stringify(text)}`,
      });
      return z.NEVER;
    }
    return value;
  });
/** `protobuf` or `json`, or the media types (`application/vnd.kubernetes.protobuf`, `application/json`). */
const apiContentTypeFlag = z
  .enum(['protobuf', 'json', 'application/vnd.kubernetes.protobuf', 'application/json'])
  .transform((value): 'protobuf' | 'json' => (value === 'json' || value === 'application/json' ? 'json' : 'protobuf'));
const address = z.string().regex(/^(0|[^\s:]*:\d{1,5}|\[[^\]]+\]:\d{1,5})$/, 'expected host:port, :port or 0');

/**
 * The flags every manager accepts, with controller-runtime's names (and OpenKruise's, which are the same). `--feature-gates`
 * is an app's (its gate table): @kruise-ts/app-config extends this schema with it.
 */
export const managerFlagsSchema = z.strictObject({
  kubeconfig: z.string().min(1).optional(),
  namespace: z.string().default(''),
  // 0 turns the client-side limit off and leaves it to the API server's Priority and Fairness.
  'kube-api-qps': countFlag('a number', 'non-negative').default(30),
  'kube-api-burst': countFlag('an integer', 'non-negative').pipe(z.number().int()).default(50),
  // What built-in kinds are read in (kube-controller-manager's --kube-api-content-type, whose media types are accepted too).
  'api-content-type': apiContentTypeFlag.default('protobuf'),
  'leader-elect': booleanFlag().default(true),
  // No default of its own: an app's configuration gives its release's (kruise-ts's is
  // @kruise-ts/app-config's), and a manager without one uses `default`.
  'leader-election-namespace': z.string().min(1).optional(),
  'leader-election-id': z.string().min(1).optional(),
  'leader-election-lease-duration': durationSchema.default(15_000),
  'leader-election-renew-deadline': durationSchema.default(10_000),
  'leader-election-retry-period': durationSchema.default(2_000),
  'metrics-bind-address': address.default(':8080'),
  'health-probe-bind-address': address.default(':8000'),
  'log-level': z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info'),
  'log-format': z.enum(['json', 'text']).default('json'),
  workers: countFlag('an integer').pipe(z.number().int()).default(3),
  'expectation-timeout': durationSchema.default(300_000),
  'graceful-shutdown-timeout': durationSchema.default(30_000),
  'cache-sync-timeout': durationSchema.default(120_000),
  // OpenKruise's names and defaults: the per-item backoff of a failing object, and the overall retry rate.
  'rate-limiter-base-delay': durationSchema.default(5),
  'rate-limiter-max-delay': durationSchema.default(1_000_000),
  'rate-limiter-qps': countFlag('a number').default(10),
  'rate-limiter-bucket-size': countFlag('an integer').pipe(z.number().int()).default(100),
});

/** Parsed manager flags. */
export type ManagerFlags = z.output<typeof managerFlagsSchema>;

/** A command line that cannot be used; the message lists every problem with the flag's name. */
export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagError';
  }
}

/**
 * Parses a command line against any flag schema, for apps that add their own flags to the manager's
 * (`managerFlagsSchema.extend({...})`). Each key is a flag name; values arrive as strings. Flags of
 * `compat` are accepted too: an alias sets our flag (giving both is an error naming them), an ignored
 * flag is checked and dropped (`compatibilityNotes` says so for the log).
 */
export function parseFlags<S extends z.ZodObject>(
  argv: readonly string[],
  schema: S,
  compat: FlagCompat = NO_FLAG_COMPAT,
): z.output<S> {
  const options = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, { type: 'string' as const }]));
  const booleans = new Set(
    Object.entries(schema.shape)
      .filter(([, field]) => isBooleanFlag(field as z.ZodType))
      .map(([name]) => name),
  );
  const args = withCompatFlags(argv, { compat, known: new Set(Object.keys(schema.shape)) });
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({
      args: normalizeBooleans(args, booleans),
      options,
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new FlagError(error instanceof Error ? error.message : String(error));
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  --${issue.path.map(String).join('.')}: ${issue.message}`);
    throw new FlagError(`invalid flags:\n${lines.join('\n')}`);
  }
  const problems = Object.values(schema.shape).flatMap(
    (field) => CROSS_FLAG_RULES.get(field as z.ZodType)?.(parsed.data) ?? [],
  );
  if (problems.length > 0) {
    throw new FlagError(`invalid flags:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  }
  return parsed.data;
}

/** The command line with compatibility flags rewritten to ours (aliases) or removed after a check (ignored ones). */
function withCompatFlags(argv: readonly string[], input: { compat: FlagCompat; known: ReadonlySet<string> }): string[] {
  const given = new Set(argv.filter((arg) => arg.startsWith('--')).map(flagName));
  const args: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    const name = arg.startsWith('--') ? flagName(arg) : '';
    const entry = name !== '' && !input.known.has(name) ? compatEntry(input.compat, name) : undefined;
    if (entry === undefined) {
      args.push(arg);
    } else if (entry.kind === 'alias') {
      if (given.has(entry.to)) {
        throw new FlagError(
          `invalid flags:\n  --${name}: ${input.compat.program}'s name for --${entry.to}, which is given too; give only --${entry.to}`,
        );
      }
      args.push(`--${entry.to}${arg.slice(2 + name.length)}`);
    } else {
      index += checkIgnored(name, entry, { arg, next: argv[index + 1] });
    }
  }
  return args;
}

/** Checks an ignored flag's value; returns 1 when it took the next argument as its value, else 0. */
function checkIgnored(name: string, entry: IgnoredFlag, input: { arg: string; next: string | undefined }): number {
  const equals = input.arg.indexOf('=');
  const separate = equals < 0 && entry.takes === 'value';
  const value = equals >= 0 ? input.arg.slice(equals + 1) : separate ? input.next : 'true';
  const problem = ignoredValueProblem(entry, value);
  if (problem !== undefined) {
    throw new FlagError(`invalid flags:\n  --${name}: ${problem}`);
  }
  return separate ? 1 : 0;
}

/** What is wrong with an ignored flag's value, if anything. */
function ignoredValueProblem(entry: IgnoredFlag, value: string | undefined): string | undefined {
  if (value === undefined) {
    return 'expected a value';
  }
  const schema = entry.takes === 'boolean' ? z.enum(['true', 'false']) : (entry.schema ?? z.string());
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? 'invalid value');
}

/** A boolean flag schema, possibly wrapped in `.default()`/`.optional()`. */
function isBooleanFlag(field: z.ZodType): boolean {
  let current: z.ZodType = field;
  while (current instanceof z.ZodDefault || current instanceof z.ZodOptional) {
    current = current.unwrap() as z.ZodType;
  }
  return BOOLEAN_FLAG_SCHEMAS.has(current);
}

function normalizeBooleans(argv: readonly string[], booleans: ReadonlySet<string>): string[] {
  return argv.map((arg) => (arg.startsWith('--') && booleans.has(arg.slice(2)) ? `${arg}=true` : arg));
}

/**
 * For a process's main: parses `argv` or writes the FlagError's message to stderr and exits with
 * code 2, as command-line tools do for usage errors. Other errors are thrown.
 */
export function parseFlagsOrExit<S extends z.ZodObject>(
  argv: readonly string[],
  schema: S,
  compat: FlagCompat = NO_FLAG_COMPAT,
): z.output<S> {
  try {
    return parseFlags(argv, schema, compat);
  } catch (error) {
    if (error instanceof FlagError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}
