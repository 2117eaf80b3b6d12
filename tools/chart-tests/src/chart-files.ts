/**
 * Where the chart lives and the data files its templates read (files/apps.yaml and
 * files/feature-gates.yaml), typed, for the tests that keep them in step with the runtime.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { load as parse } from 'js-yaml';

/** The repository's root directory. */
export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The chart's directory. */
export const CHART_DIRECTORY = path.join(REPOSITORY_ROOT, 'charts', 'kruise-ts');

/** The validation webhook of an app's workload kind (templates/webhook.yaml renders its ValidatingWebhookConfiguration). */
export interface ChartValidationWebhook {
  /** The webhook's name in the configuration, e.g. `vcloneset.kruise-ts.io`. */
  readonly name: string;
  /** The path on the app's webhook server, OpenKruise's: `/validate-apps-kruise-io-cloneset`. */
  readonly path: string;
  /** The CRD's group, served versions, plural and scope. */
  readonly group: string;
  readonly versions: readonly string[];
  readonly resource: string;
  readonly scope: 'Namespaced' | 'Cluster';
}

/** One app of files/apps.yaml, keyed there by its feature gate. */
export interface ChartApp {
  readonly name: string;
  readonly title: string;
  readonly available: boolean;
  /** The app's main file, relative to the repository root (the image's working directory). */
  readonly entrypoint?: string;
  /** File names under files/crds. */
  readonly crds?: readonly string[];
  /** The validation webhook of the app's kind, on the app's own webhook server. */
  readonly validationWebhook?: ChartValidationWebhook;
}

/** One dependency rule of files/feature-gates.yaml (OpenKruise's SetDefaultFeatureGates). */
export interface ChartGateDependency {
  readonly when: { readonly gate: string; readonly enabled: boolean };
  readonly force: { readonly enabled: boolean; readonly gates: readonly string[] };
}

/** files/feature-gates.yaml. */
export interface ChartGateTable {
  readonly defaults: Readonly<Record<string, boolean>>;
  readonly dependencies: readonly ChartGateDependency[];
}

async function readChartYaml<T>(relativePath: string): Promise<T> {
  return parse(await readFile(path.join(CHART_DIRECTORY, relativePath), 'utf8')) as T;
}

/** The chart's apps by gate name. */
export async function readChartApps(): Promise<Readonly<Record<string, ChartApp>>> {
  return readChartYaml<Record<string, ChartApp>>('files/apps.yaml');
}

/** The chart's feature gate defaults and dependency rules. */
export async function readChartGateTable(): Promise<ChartGateTable> {
  return readChartYaml<ChartGateTable>('files/feature-gates.yaml');
}

type GateItem = { readonly name: string; readonly value: boolean } | { readonly problem: string };

function parseGateItem(table: ChartGateTable, item: string): GateItem {
  const equals = item.indexOf('=');
  const name = item.slice(0, equals).trim();
  const value = item.slice(equals + 1).trim();
  if (equals < 0 || !Object.hasOwn(table.defaults, name) || (value !== 'true' && value !== 'false')) {
    return { problem: `bad item ${item}` };
  }
  return { name, value: value === 'true' };
}

/** Applies the rules in order (a rule sees what earlier rules forced) and returns the forced gates. */
function applyDependencies(table: ChartGateTable, values: Record<string, boolean>): Set<string> {
  const forced = new Set<string>();
  for (const rule of table.dependencies) {
    if (values[rule.when.gate] !== rule.when.enabled) {
      continue;
    }
    for (const gate of rule.force.gates) {
      values[gate] = rule.force.enabled;
      forced.add(gate);
    }
  }
  return forced;
}

/**
 * Evaluates a gate string with the chart's table, step by step as templates/_feature-gates.tpl does
 * (for comparing the table with the runtime over many strings without running helm for each): the
 * gate values, or the first problem.
 */
export function evaluateChartGates(
  table: ChartGateTable,
  flag: string,
): { readonly values: Record<string, boolean> } | { readonly problem: string } {
  const values: Record<string, boolean> = { ...table.defaults };
  const explicit = new Map<string, boolean>();
  for (const item of flag
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const parsed = parseGateItem(table, item);
    if ('problem' in parsed) {
      return parsed;
    }
    values[parsed.name] = parsed.value;
    explicit.set(parsed.name, parsed.value);
  }
  const forced = applyDependencies(table, values);
  const conflict = [...forced].find((gate) => explicit.has(gate) && explicit.get(gate) !== values[gate]);
  return conflict === undefined ? { values } : { problem: `conflict on ${conflict}` };
}
