/**
 * The claims of the READMEs that code can check: which app gates are on by default, which API
 * versions each kind is served and stored in, which flags exist, and which files the text points to.
 * A README that drifts from the code fails here instead of misleading the next reader.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { CRD_DEFINITIONS } from '@kruise-ts/api';
import type { CrdDefinition } from '@kruise-ts/api';
import { KNOWN_FEATURE_GATES, OPENKRUISE_MANAGER_FLAGS } from '@kruise-ts/app-config';

import { APPS, launcherFlagsSchema } from './apps.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The text of a repository file with every run of whitespace as one space, so that line breaks do not matter. */
function prose(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8').replace(/\s+/g, ' ');
}

function onByDefault(gate: string): boolean {
  const spec = (KNOWN_FEATURE_GATES as Readonly<Record<string, { readonly default: boolean }>>)[gate];
  if (spec === undefined) {
    throw new Error(`unknown gate ${gate}`);
  }
  return spec.default;
}

function appReadme(name: string): string {
  return `apps/${name}/README.md`;
}

describe('README claims: app gates', () => {
  const defaultOn = APPS.filter((app) => onByDefault(app.gate)).map((app) => app.gate);
  const defaultOff = APPS.filter((app) => !onByDefault(app.gate)).map((app) => app.gate);

  it('the top README names exactly the apps on by default', () => {
    expect(prose('README.md')).toContain(`(${defaultOn.join(' and ')} on by default)`);
    expect(prose('README.md')).toContain(
      `${defaultOff.map((gate) => `\`${gate}=true\``).join(' and ')} add those apps`,
    );
  });

  it.each(APPS.map((app) => [app.name, app.gate] as const))(
    'apps/%s/README.md states the default of its gate %s',
    (name, gate) => {
      const state = onByDefault(gate) ? 'on' : 'off';
      expect(prose(appReadme(name))).toMatch(new RegExp(`\`${gate}\` feature gate \\(${state} by default`));
    },
  );

  it.each(APPS.map((app) => [app.gate] as const))('the chart README and values state the default of %s', (gate) => {
    const state = onByDefault(gate) ? 'on' : 'off';
    for (const path of ['charts/kruise-ts/values.yaml']) {
      const text = prose(path).replace(/ # /g, ' ');
      const named = onByDefault(gate)
        ? new RegExp(`${defaultOn.join(' and ')} are on by default`)
        : new RegExp(`${gate} is off by default`);
      expect(text, `${path}: ${gate} ${state} by default`).toMatch(named);
    }
  });
});

/** One row of packages/api/README.md's "API versions" table. */
interface VersionRow {
  readonly served: string[];
  readonly stored: string;
  readonly conversion: string;
}

function versionTable(): Map<string, VersionRow> {
  const text = readFileSync(join(ROOT, 'packages/api/README.md'), 'utf8');
  const section = text.slice(text.indexOf('| kind | served | stored | conversion |'));
  const table = section.slice(0, section.indexOf('\n\n'));
  const rows = new Map<string, VersionRow>();
  for (const match of table.matchAll(/^\| ([A-Za-z ]+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$/gm)) {
    const [, kind = '', served = '', stored = '', conversion = ''] = match;
    if (kind.trim() !== 'kind') {
      rows.set(kind.trim(), {
        served: [...served.matchAll(/`([a-z0-9]+)`/g)].map((m) => m[1] ?? ''),
        stored: stored.replace(/`/g, '').trim(),
        conversion: conversion.trim(),
      });
    }
  }
  return rows;
}

const KIND_ROW: Readonly<Record<string, string>> = {
  CloneSet: 'CloneSet',
  StatefulSet: 'Advanced StatefulSet',
  SidecarSet: 'SidecarSet',
  BroadcastJob: 'BroadcastJob',
};

function conversionWord(definition: CrdDefinition): string {
  if (definition.conversion === undefined) {
    return 'none';
  }
  return definition.conversion.strategy === 'None' ? '`None`' : 'webhook';
}

describe('README claims: API versions', () => {
  const rows = versionTable();

  it('the table has one row per kind, no more', () => {
    expect([...rows.keys()].sort()).toEqual(Object.values(KIND_ROW).sort());
  });

  it.each(CRD_DEFINITIONS.map((definition) => [definition.names.kind, definition] as const))(
    '%s: served, stored and conversion as the CRD',
    (kind, definition) => {
      const row = rows.get(KIND_ROW[kind] ?? kind);
      expect(row).toBeDefined();
      expect(row?.served).toEqual(
        definition.versions.filter((version) => version.served).map((version) => version.name),
      );
      expect(row?.stored).toBe(definition.versions.find((version) => version.storage)?.name);
      expect(row?.conversion.startsWith(conversionWord(definition))).toBe(true);
    },
  );
});

/** Flags of other programs that the READMEs mention (kubectl, helm, node, npm, the bench and the CLI). */
const OTHER_PROGRAMS_FLAGS = new Set([
  '--server-side',
  '--force-conflicts',
  '--dry-run',
  '--namespace',
  '--create-namespace',
  '--set',
  '--wait',
  '--take-ownership',
  '--conditions',
  '--replicas',
  '--delete',
  '--timeout',
  '--to-revision',
  '--revision',
  '--context',
  '--kubeconfig',
  '--to',
  '--max-surge',
  '--name',
]);

function flagsMentioned(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  return [...new Set([...text.matchAll(/`(--[a-z][a-z0-9-]*)[ =`]/g)].map((match) => match[1] ?? ''))];
}

describe('README claims: controller flags', () => {
  const known = new Set(
    [...Object.keys(launcherFlagsSchema.shape), ...Object.keys(OPENKRUISE_MANAGER_FLAGS.flags)].map(
      (name) => `--${name}`,
    ),
  );

  it.each(APPS.map((app) => [appReadme(app.name)] as const))('every flag %s names exists', (path) => {
    const flags = flagsMentioned(path);
    expect(flags.length, `${path} documents its flags`).toBeGreaterThan(0);
    const unknown = flags.filter((flag) => !known.has(flag) && !OTHER_PROGRAMS_FLAGS.has(flag));
    expect(unknown).toEqual([]);
  });
});

/** Relative Markdown links and backticked repository paths of the READMEs and docs. */
function pathsPointedTo(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/.test(target));
  const named = [
    ...text.matchAll(/`((?:apps|packages|docs|charts|crds)\/[A-Za-z0-9_.\-/]+\.(?:ts|md|yaml|json|tpl|mjs))`/g),
  ].map((match) => match[1] ?? '');
  return [...new Set([...links, ...named])];
}

/** A path counts if it exists from the file's directory, from any directory above it, or from the root. */
function exists(from: string, target: string): boolean {
  let directory = dirname(join(ROOT, from));
  while (directory.startsWith(ROOT)) {
    if (existsSync(join(directory, target))) {
      return true;
    }
    directory = dirname(directory);
  }
  return false;
}

const DOCUMENTS = [
  'README.md',
  'docs/migrating-from-openkruise.md',
  'docs/benchmarks.md',
  'docs/local-control-plane.md',
  'charts/kruise-ts/README.md',
  ...APPS.map((app) => appReadme(app.name)),
  'apps/cli/README.md',
];

describe('README claims: files pointed to', () => {
  it.each(DOCUMENTS.map((path) => [path] as const))('%s points only to files that exist', (path) => {
    expect(pathsPointedTo(path).filter((target) => !exists(path, target))).toEqual([]);
  });
});
