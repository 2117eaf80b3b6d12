/**
 * The gate table tells the truth: a gate is `implemented` exactly when code of an app or a package
 * asks for it (`gates.enabled('Name')`, or a launcher entry `gate: 'Name'` that runs an app), so that
 * the start-up warning for unimplemented gates can be trusted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { FEATURE_GATE_NAMES, KNOWN_FEATURE_GATES } from './known-gates.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const USE = /\.enabled\(\s*'([A-Za-z]+)'\s*\)|\bgate:\s*'([A-Za-z]+)'/g;

function walk(directory: string): string[] {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) =>
    entry.isDirectory() ? walk(path.join(directory, entry.name)) : [path.join(directory, entry.name)],
  );
}

function gateUses(): Map<string, string[]> {
  const uses = new Map<string, string[]>();
  const files = ['apps', 'packages', 'tools']
    .flatMap((group) => walk(path.join(ROOT, group)))
    .filter((file) => file.includes(`${path.sep}src${path.sep}`) && file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .filter(
      (file) =>
        !file.includes(`${path.sep}node_modules${path.sep}`) &&
        !file.includes(`${path.sep}testing${path.sep}`) &&
        !file.includes(`${path.sep}feature-gates${path.sep}`),
    );
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(USE)) {
      const name = match[1] ?? match[2] ?? '';
      uses.set(name, [...(uses.get(name) ?? []), path.relative(ROOT, file)]);
    }
  }
  return uses;
}

describe('the implemented flag of every feature gate', () => {
  const uses = gateUses();

  it('finds the gate uses it checks against (the scan works)', () => {
    expect(uses.get('CloneSet')).toContain(path.join('apps', 'cloneset', 'src', 'main.ts'));
  });

  it.each(FEATURE_GATE_NAMES.map((name) => ({ name, implemented: KNOWN_FEATURE_GATES[name].implemented })))(
    '$name: implemented is $implemented',
    ({ name, implemented }) => {
      const where = uses.get(name) ?? [];
      expect(
        where.length > 0,
        where.length > 0
          ? `${name} is used in ${where.join(', ')} but not marked implemented`
          : `${name} is marked implemented but no code asks for it`,
      ).toBe(implemented);
    },
  );

  it('uses no gate that is not in the table', () => {
    expect([...uses.keys()].filter((name) => !Object.hasOwn(KNOWN_FEATURE_GATES, name))).toEqual([]);
  });
});
