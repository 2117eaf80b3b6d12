import { UsageError } from '../cli/cli-errors.ts';
import { KINDS, preferredSpelling, resolveKind } from './kinds.ts';
import type { Kind, KindId } from './kinds.ts';

/** One object named on the command line. */
export interface ObjectRef {
  readonly kind: Kind;
  readonly name: string;
}

/**
 * The object of `TYPE/NAME` or `TYPE NAME`, kubectl's two spellings. Each command works on one object,
 * so more names are a usage error rather than a partial success.
 */
export function parseObjectRef(args: readonly string[]): ObjectRef {
  const [first, second, ...rest] = args;
  if (first === undefined) {
    throw new UsageError('you must specify the type of resource and its name', 'for example cloneset/web or asts/db');
  }
  if (rest.length > 0 || (second !== undefined && first.includes('/'))) {
    throw new UsageError(`one object at a time: got ${args.join(' ')}`);
  }
  const [type, name] = first.includes('/') ? splitSlashForm(first) : [first, second];
  if (name === undefined) {
    throw new UsageError(`resource(s) were provided, but no name was specified`, `for example ${type}/NAME`);
  }
  return { kind: kindOf(type), name };
}

function splitSlashForm(arg: string): readonly [string, string] {
  const parts = arg.split('/');
  const [type, name] = parts;
  if (parts.length !== 2 || type === undefined || type === '' || name === undefined || name === '') {
    throw new UsageError(
      `arguments in resource/name form must have a single resource and name: ${JSON.stringify(arg)}`,
    );
  }
  return [type, name];
}

function kindOf(type: string): Kind {
  const kind = resolveKind(type);
  if (kind === undefined) {
    const known = KINDS.filter((candidate) => candidate.id !== 'native-statefulset').map(describeKind);
    throw new UsageError(
      `the resource type ${JSON.stringify(type)} is not one kruise-ts knows`,
      `known types: ${known.join(', ')}`,
    );
  }
  return kind;
}

/** `cloneset (clone)`, `statefulset.apps.kruise.io (asts)`, `sidecarset`. */
function describeKind(kind: Kind): string {
  const full = resolveKind(kind.singular) === kind ? kind.singular : `${kind.singular}.${kind.group}`;
  const short = preferredSpelling(kind);
  return short === full ? full : `${full} (${short})`;
}

/**
 * The ref, when its kind is one `command` works on. A native StatefulSet gets its own hint: `statefulset`
 * means the native kind to kubectl, and the Advanced StatefulSet has to be spelled out.
 */
export function requireKind(ref: ObjectRef, command: string, supported: readonly KindId[]): ObjectRef {
  if (supported.includes(ref.kind.id)) {
    return ref;
  }
  const accepted = KINDS.filter((kind) => supported.includes(kind.id)).map((kind) => `${preferredSpelling(kind)}/NAME`);
  if (ref.kind.id === 'native-statefulset') {
    throw new UsageError(
      `${ref.kind.singular}/${ref.name} is a native StatefulSet (apps/v1), which ${command} does not work on`,
      `for an Advanced StatefulSet write asts/${ref.name} or statefulset.apps.kruise.io/${ref.name}`,
    );
  }
  throw new UsageError(
    `${command} does not work on ${ref.kind.plural}.${ref.kind.group}`,
    `it takes ${accepted.join(' or ')}`,
  );
}
