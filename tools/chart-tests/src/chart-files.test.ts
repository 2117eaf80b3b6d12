/**
 * The chart's data files against the runtime: the feature-gate table must parse every gate string as
 * `--feature-gates` does, and the app registry must name exactly the runtime's app gates, with
 * entrypoints (bundles built from sources that exist), CRD files that exist, and validation webhooks
 * whose rules match those CRDs.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';
import { load as parse } from 'js-yaml';

import { FEATURE_GATE_NAMES, KNOWN_FEATURE_GATES, parseFeatureGates } from '@kruise-ts/app-config';
import { PROCESS_ENTRIES } from '@kruise-ts/bundle';

import {
  CHART_DIRECTORY,
  evaluateChartGates,
  readChartApps,
  readChartGateTable,
  REPOSITORY_ROOT,
} from './chart-files.ts';

/** The fields of a CRD file (files/crds) that a validation webhook's rule repeats. */
interface CrdFile {
  readonly spec: {
    readonly group: string;
    readonly names: { readonly kind: string; readonly plural: string };
    readonly scope: 'Namespaced' | 'Cluster';
    readonly versions: readonly { readonly name: string; readonly served: boolean }[];
    readonly conversion?: { readonly strategy: string };
  };
}

type Outcome = { readonly ok: true; readonly values: Record<string, boolean> } | { readonly ok: false };

function runtimeOutcome(flag: string): Outcome {
  try {
    return { ok: true, values: Object.fromEntries(parseFeatureGates(flag).entries()) };
  } catch {
    return { ok: false };
  }
}

/** Every two-item gate string `A=x,B=y` over all known gates (and a few single and malformed ones). */
function gateStrings(): string[] {
  const items = FEATURE_GATE_NAMES.flatMap((name) => [`${name}=true`, `${name}=false`]);
  const pairs = items.flatMap((first) =>
    items.filter((second) => second.split('=')[0] !== first.split('=')[0]).map((second) => `${first},${second}`),
  );
  return [
    '',
    ' , ',
    ...items,
    ...pairs,
    'CloneSet',
    'CloneSet=True',
    'cloneset=true',
    'CloneSet=true=false',
    ' CloneSet = false ,',
    'CloneSet=false,CloneSet=true',
  ];
}

describe('files/feature-gates.yaml', () => {
  it('has every runtime gate with the runtime default, and no other', async () => {
    const table = await readChartGateTable();
    expect(table.defaults).toEqual(
      Object.fromEntries(FEATURE_GATE_NAMES.map((name) => [name, KNOWN_FEATURE_GATES[name].default])),
    );
  });

  it('accepts and rejects exactly what --feature-gates does, with the same resulting values (every pair of gates)', async () => {
    const table = await readChartGateTable();
    const strings = gateStrings();
    const disagreements = strings.flatMap((flag) => {
      const runtime = runtimeOutcome(flag);
      const chart = evaluateChartGates(table, flag);
      const chartOutcome: Outcome = 'values' in chart ? { ok: true, values: chart.values } : { ok: false };
      return JSON.stringify(chartOutcome) === JSON.stringify(runtime) ? [] : [flag];
    });
    expect(strings.length).toBeGreaterThan(6000);
    expect(disagreements).toEqual([]);
  });
});

describe('files/apps.yaml', () => {
  it('lists exactly the runtime app gates (origin kruise-ts)', async () => {
    const appGates = FEATURE_GATE_NAMES.filter((name) => KNOWN_FEATURE_GATES[name].origin === 'kruise-ts');
    expect(Object.keys(await readChartApps()).sort()).toEqual([...appGates].sort());
  });

  it('gives every available app an existing entrypoint and existing CRD files; an app being built names only its CRD files', async () => {
    for (const [gate, app] of Object.entries(await readChartApps())) {
      expect(app.name, gate).toMatch(/^[a-z][a-z0-9-]*$/);
      for (const crd of app.crds ?? []) {
        expect(existsSync(path.join(CHART_DIRECTORY, 'files', 'crds', crd)), `${gate}: files/crds/${crd}`).toBe(true);
      }
      if (!app.available) {
        expect(app.entrypoint, gate).toBeUndefined();
        continue;
      }
      // The image runs the app's bundle; what it is built from must exist.
      expect(app.entrypoint, gate).toBe(`dist/${app.name}.mjs`);
      const source = PROCESS_ENTRIES[app.name];
      expect(source, `${gate}: no bundle entry named ${app.name} in @kruise-ts/bundle`).toBeDefined();
      expect(existsSync(path.join(REPOSITORY_ROOT, source ?? '')), `${gate}: ${source ?? ''}`).toBe(true);
      expect(app.crds?.length, gate).toBeGreaterThan(0);
      for (const crd of app.crds ?? []) {
        expect(existsSync(path.join(CHART_DIRECTORY, 'files', 'crds', crd)), `${gate}: files/crds/${crd}`).toBe(true);
      }
    }
  });

  it('names every CRD file of the chart under some app (none is rendered for no app)', async () => {
    const named = Object.values(await readChartApps()).flatMap((app) => app.crds ?? []);
    const files = (await readdir(path.join(CHART_DIRECTORY, 'files', 'crds'))).filter((name) => name.endsWith('.yaml'));
    expect([...named].sort()).toEqual(files.sort());
  });

  it("gives every available app a validation webhook for its CRD's kind: the CRD's group, its served versions (every one when a webhook converts them), plural and scope, OpenKruise's path", async () => {
    for (const [gate, app] of Object.entries(await readChartApps()).filter(([, candidate]) => candidate.available)) {
      const webhook = app.validationWebhook;
      expect(webhook, gate).toBeDefined();
      expect(Object.keys(webhook ?? {}).sort(), gate).toEqual([
        'group',
        'name',
        'path',
        'resource',
        'scope',
        'versions',
      ]);
      // The app's kind is the CRD of its own (its first; every app has one).
      const crd = parse(
        await readFile(path.join(CHART_DIRECTORY, 'files', 'crds', app.crds?.[0] ?? ''), 'utf8'),
      ) as CrdFile;
      const kind = crd.spec.names.kind.toLowerCase();
      expect(webhook, gate).toEqual({
        name: `v${kind}.kruise-ts.io`,
        path: `/validate-${crd.spec.group.replaceAll('.', '-')}-${kind}`,
        group: crd.spec.group,
        versions: webhook?.versions,
        resource: crd.spec.names.plural,
        scope: crd.spec.scope,
      });
      const served = crd.spec.versions.filter((version) => version.served).map((version) => version.name);
      if (crd.spec.conversion?.strategy === 'Webhook') {
        // Every served version: a request in a version the webhook is not registered for would need the
        // conversion webhook (the same app's) to reach it, and fail while the app is down (issue 39).
        expect(webhook?.versions, gate).toEqual(served);
      } else {
        // One served version, the one the handler reads: with matchPolicy Equivalent the API server
        // converts a request in another version itself (no webhook: `conversion: None`).
        expect(webhook?.versions.length, gate).toBe(1);
        expect(served, gate).toContain(webhook?.versions[0]);
      }
    }
  });

  it('has an RBAC template for every available app', async () => {
    for (const app of Object.values(await readChartApps()).filter((candidate) => candidate.available)) {
      expect(existsSync(path.join(CHART_DIRECTORY, 'templates', `_rbac-${app.name}.tpl`)), app.name).toBe(true);
    }
  });
});
