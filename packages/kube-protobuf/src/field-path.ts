/**
 * The dotted field paths of a field filter, as the cache transforms list them (`spec.tolerations`,
 * `spec.containers[].imagePullPolicy`, `metadata.managedFields`): JSON names, `[]` after a list or a
 * map to go into each of its values. Parsed into a tree, one node per field named.
 */

/** A field named by at least one path. */
export interface PathNode {
  /** Its children by JSON name (the fields of its value, or of each item with `[]`). */
  readonly children: Map<string, PathNode>;
  /** Some path ends here: the field itself is dropped (or kept whole). */
  end: boolean;
  /** Written with `[]`: the children are fields of each item or map value. */
  items: boolean;
  /** The first path that named it, for errors. */
  readonly path: string;
}

const SEGMENT = /^([A-Za-z_$][A-Za-z0-9_$]*)(\[\])?$/;

function newNode(path: string): PathNode {
  return { children: new Map(), end: false, items: false, path };
}

function addPath(root: PathNode, path: string): void {
  const segments = path.split('.');
  let node = root;
  for (const [index, segment] of segments.entries()) {
    const match = SEGMENT.exec(segment);
    const name = match?.[1];
    if (match === null || name === undefined) {
      throw new Error(`field filter: ${JSON.stringify(path)} is not a field path (json names and [], e.g. a.b[].c)`);
    }
    const items = match[2] !== undefined;
    let child = node.children.get(name);
    if (child === undefined) {
      child = newNode(segments.slice(0, index + 1).join('.'));
      child.items = items;
      node.children.set(name, child);
    } else if (child.items !== items && index < segments.length - 1) {
      throw new Error(`field filter: ${JSON.stringify(path)} writes ${name} with and without [] elsewhere`);
    }
    node = child;
  }
  node.end = true;
}

/** The paths as a tree under a root standing for the object. */
export function parsePaths(paths: readonly string[]): PathNode {
  const root = newNode('');
  for (const path of paths) {
    addPath(root, path);
  }
  return root;
}
