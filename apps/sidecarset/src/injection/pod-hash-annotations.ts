/**
 * The pod's record of its SidecarSets (§B.6.2, §B.7): `kruise.io/sidecarset-hash` and
 * `kruise.io/sidecarset-hash-without-image` as JSON maps by SidecarSet name of
 * `{updateTimestamp, hash, sidecarSetName, sidecarList, controllerRevision?}` (OpenKruise's
 * SidecarSetUpgradeSpec, in its field order), and the sorted `kruise.io/sidecarset-injected-list`.
 */
import type { SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

/** One SidecarSet's record on a pod. */
export interface SidecarSetUpgradeSpec {
  readonly updateTimestamp: string;
  readonly hash: string;
  readonly sidecarSetName: string;
  readonly sidecarList: readonly string[];
  readonly controllerRevision?: string;
}

const upgradeSpecSchema = z.looseObject({
  updateTimestamp: z.string().optional(),
  hash: z.string().optional(),
  sidecarSetName: z.string().optional(),
  sidecarList: z.array(z.string()).nullable().optional(),
  controllerRevision: z.string().optional(),
});

/** Built once: a schema built per parse cost most of a reconcile's CPU at 1,000 pods (bench sidecarset-scale). */
const upgradeSpecsSchema = z.record(z.string(), z.union([z.string(), upgradeSpecSchema]));

/** The map of a pod annotation; the legacy format (name → hash string) is read too; unreadable text reads as empty. */
export function parseUpgradeSpecs(text: string | undefined): Map<string, SidecarSetUpgradeSpec> {
  const result = new Map<string, SidecarSetUpgradeSpec>();
  if (text === undefined || text === '') {
    return result;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return result;
  }
  const entries = upgradeSpecsSchema.safeParse(parsed);
  if (!entries.success) {
    return result;
  }
  for (const [name, value] of Object.entries(entries.data)) {
    result.set(name, toUpgradeSpec(name, typeof value === 'string' ? { hash: value } : value));
  }
  return result;
}

function toUpgradeSpec(name: string, spec: z.output<typeof upgradeSpecSchema>): SidecarSetUpgradeSpec {
  const revision = spec.controllerRevision === undefined ? {} : { controllerRevision: spec.controllerRevision };
  return {
    updateTimestamp: spec.updateTimestamp ?? '',
    hash: spec.hash ?? '',
    sidecarSetName: spec.sidecarSetName ?? name,
    sidecarList: spec.sidecarList ?? [],
    ...revision,
  };
}

/** The annotation text, keys sorted as Go writes a map, each record in OpenKruise's field order. */
export function formatUpgradeSpecs(specs: ReadonlyMap<string, SidecarSetUpgradeSpec>): string {
  const sorted = [...specs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(
    Object.fromEntries(
      sorted.map(([name, spec]) => [
        name,
        {
          updateTimestamp: spec.updateTimestamp,
          hash: spec.hash,
          sidecarSetName: spec.sidecarSetName,
          sidecarList: spec.sidecarList,
          ...(spec.controllerRevision === undefined || spec.controllerRevision === ''
            ? {}
            : { controllerRevision: spec.controllerRevision }),
        },
      ]),
    ),
  );
}

/** The sorted, comma-joined union of an injected list and more names. */
export function injectedList(existing: string | undefined, names: readonly string[]): string {
  const all = new Set([...(existing ?? '').split(',').filter((name) => name !== ''), ...names]);
  return [...all].sort().join(',');
}

/** The `sidecarList` a pod records for a SidecarSet: its containers and native-sidecar init containers, as the SidecarSet names them, sorted. */
export function sidecarListOf(set: DeepReadonly<SidecarSet>): string[] {
  const native = (set.spec.initContainers ?? []).filter((container) => container.restartPolicy === 'Always');
  return [...native, ...(set.spec.containers ?? [])].map((container) => container.name).sort();
}
