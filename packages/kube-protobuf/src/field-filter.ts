/**
 * Field filters: what a cache drops of a kind, compiled once against the wire tables into filtered
 * copies of the tables on the named paths, in which a dropped field is absent, so that the decoder
 * skips it by its length (as an unknown field) without building anything, and does not write its Go
 * zero either. Paths are exact: `spec.containers[].imagePullPolicy` filters the Container tables
 * reached through `spec.containers` only, not those of `spec.initContainers`.
 */
import { parsePaths } from './field-path.ts';
import type { PathNode } from './field-path.ts';
import { kindTable, listsOf, plainObjectConstructor, Shape, ValueKind, zerosOf } from './tables.ts';
import type { FieldTable, MessageTable } from './tables.ts';
import { WIRE_KINDS } from './wire-tables.generated.ts';

/** `drop`: the paths name what is left out; `keep`: what is kept, everything else on their way left out. */
export type FieldFilterMode = 'drop' | 'keep';

/**
 * A compiled field filter of one kind (opaque; {@link compileFieldFilter}). Given to the decoders
 * (`{ filter }`), it applies to that kind and to its List; {@link applyFieldFilter} applies the same
 * filter to an object from JSON.
 */
export class FieldFilter {
  readonly apiVersion: string;
  readonly kind: string;
  readonly mode: FieldFilterMode;
  readonly paths: readonly string[];
  /** @internal The paths as a tree, for {@link applyFieldFilter} (in keep mode, with the root's kind and apiVersion). */
  readonly jsonTree: PathNode;
  /** @internal The filtered table by the table it replaces: the kind's and its List's. */
  readonly tables: ReadonlyMap<MessageTable, MessageTable>;

  /** @internal Use {@link compileFieldFilter}. */
  constructor(kind: readonly [apiVersion: string, kind: string], spec: CompiledSpec) {
    [this.apiVersion, this.kind] = kind;
    this.mode = spec.mode;
    this.paths = spec.paths;
    this.jsonTree = spec.jsonTree;
    this.tables = spec.tables;
  }
}

interface CompiledSpec {
  readonly mode: FieldFilterMode;
  readonly paths: readonly string[];
  readonly jsonTree: PathNode;
  readonly tables: ReadonlyMap<MessageTable, MessageTable>;
}

/** The filter's table in place of `table`, or `table` itself. */
export function filteredTable(table: MessageTable, filter: FieldFilter | undefined): MessageTable {
  return filter?.tables.get(table) ?? table;
}

/** What one message's filtering does, shared by the message and the structs inlined into it. */
interface Pass {
  readonly mode: FieldFilterMode;
  /** The names of the node matched by a field of the message or of an inlined struct. */
  readonly matched: Set<string>;
  /** The struct whose fields are filtered, for errors. */
  readonly owner: MessageTable;
}

function describeShape(field: FieldTable): string {
  return field.shape === Shape.repeated ? 'a list' : 'a map';
}

/** Checks that [] follows a list or map, and that a path going on below one has it. */
function checkItems(field: FieldTable, node: PathNode, owner: MessageTable): void {
  const many = field.shape === Shape.repeated || field.shape === Shape.map;
  if (node.items === many || (many && node.end)) {
    return;
  }
  const what = many ? `${describeShape(field)}: write ${field.name}[]` : `not a list or map: no [] after it`;
  throw new Error(`field filter: ${JSON.stringify(node.path)}: ${owner.name}.${field.name} is ${what}`);
}

/** The struct a path goes on into. */
function descent(field: FieldTable, node: PathNode, owner: MessageTable): MessageTable {
  if (field.kind !== ValueKind.message || field.message === undefined) {
    throw new Error(`field filter: ${JSON.stringify(node.path)}: ${owner.name}.${field.name} has no fields below it`);
  }
  return field.message;
}

/** The field as the filter has it: undefined when left out, a copy over a filtered struct when filtered below. */
function filterField(field: FieldTable, node: PathNode | undefined, pass: Pass): FieldTable | undefined {
  if (node === undefined) {
    return pass.mode === 'drop' ? field : undefined;
  }
  pass.matched.add(field.name);
  checkItems(field, node, pass.owner);
  if (node.end) {
    return pass.mode === 'drop' ? undefined : field;
  }
  const message = descent(field, node, pass.owner);
  return { ...field, message: filterMessage(message, node, pass.mode) };
}

/** A copy of the table with the node's children filtered; an inlined struct's fields share the node. */
function filterFields(table: MessageTable, node: PathNode, outer: Pass): MessageTable {
  const pass = { ...outer, owner: table };
  const fields = table.fields.map((field) => {
    if (field === undefined) {
      return undefined;
    }
    if (field.shape === Shape.inline && field.message !== undefined) {
      return { ...field, message: filterFields(field.message, node, pass) };
    }
    return filterField(field, node.children.get(field.name), pass);
  });
  const filtered = { name: table.name, fields, zeros: [], lists: listsOf(fields), construct: plainObjectConstructor() };
  return { ...filtered, zeros: zerosOf(filtered, new Set()) };
}

function filterMessage(table: MessageTable, node: PathNode, mode: FieldFilterMode): MessageTable {
  const pass: Pass = { mode, matched: new Set(), owner: table };
  const filtered = filterFields(table, node, pass);
  for (const [name, child] of node.children) {
    if (!pass.matched.has(name)) {
      throw new Error(`field filter: unknown field path ${JSON.stringify(child.path)} (${table.name} has no ${name})`);
    }
  }
  return filtered;
}

function findKind(kind: string): readonly [apiVersion: string, kind: string] {
  const found = WIRE_KINDS.filter(([apiVersion, name]) => name === kind || `${apiVersion}/${name}` === kind);
  const [only] = found;
  if (only === undefined || found.length > 1 || kind.endsWith('List')) {
    throw new Error(`field filter: ${JSON.stringify(kind)} is not one kind of the wire tables`);
  }
  return [only[0], only[1]];
}

/** The list's table with its items' table replaced by the filtered one. */
function filterList(list: MessageTable, item: MessageTable, filtered: MessageTable): MessageTable {
  const fields = list.fields.map((field) =>
    field?.message === item && field.shape === Shape.repeated ? { ...field, message: filtered } : field,
  );
  return { ...list, fields, construct: plainObjectConstructor() };
}

/**
 * Compiles a field filter of one kind (`Pod`, or `v1/Pod`) from dotted paths of JSON names (`spec.tolerations`,
 * `spec.containers[].imagePullPolicy`, `metadata.managedFields`; `[]` goes into each item of a list or
 * value of a map). A path the kind does not have is an error here, naming it. In `drop` mode the
 * named fields are left out; in `keep` mode only they are, with every field on their way (the root's
 * `kind` and `apiVersion` stay, as the envelope writes them).
 */
export function compileFieldFilter(
  kind: string,
  paths: readonly string[],
  mode: FieldFilterMode = 'drop',
): FieldFilter {
  const [apiVersion, name] = findKind(kind);
  const tree = parsePaths(paths);
  const table = kindTable(apiVersion, name);
  if (table === undefined) {
    throw new Error(`field filter: no table for ${kind}`);
  }
  const filtered = filterMessage(table, tree, mode);
  const tables = new Map([[table, filtered]]);
  const list = kindTable(apiVersion, `${name}List`);
  if (list !== undefined) {
    tables.set(list, filterList(list, table, filtered));
  }
  const jsonTree = mode === 'keep' ? parsePaths([...paths, 'kind', 'apiVersion']) : tree;
  return new FieldFilter([apiVersion, name], { mode, paths: [...paths], jsonTree, tables });
}
