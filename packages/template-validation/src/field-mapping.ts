/**
 * Where a field of the pod (or claim) built for a dry run came from in the workload: the API server
 * names `spec.containers[0].name` of the pod, the user must read `spec.template.spec.containers[0].name`
 * of their CloneSet.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/** Maps a field path of the dry-run object to the workload's. */
export type FieldMapping = (field: string) => string;

/** Where the template and the claim templates are in the workload. */
export interface PodTemplatePaths {
  /** The pod template, `spec.template` for CloneSet, StatefulSet and BroadcastJob. */
  readonly template: string;
  /** The claim templates, `spec.volumeClaimTemplates`; their volumes in the pod map there. */
  readonly claimTemplates?: string | undefined;
  /** The workload's name, from which the pod's name is made. */
  readonly name?: string | undefined;
}

const VOLUME_FIELD = /^spec\.volumes\[(\d+)\](.*)$/;

/**
 * The mapping for a pod built from a template: `metadata.name`/`generateName` (made from the
 * workload's name) map to the workload's `metadata.name`; a volume the controller added for a claim
 * template maps to that claim template's name; the rest of `spec` and `metadata` to the template's.
 * `claimTemplateNames` are the claim templates in order (the pod's claim volumes carry their names).
 */
export function podTemplateMapping(
  pod: DeepReadonly<Pod>,
  claimTemplateNames: readonly string[],
  paths: PodTemplatePaths,
): FieldMapping {
  const volumes = pod.spec?.volumes ?? [];
  /** The claim template whose volume `field` is in, if any. */
  const claimOf = (field: string): number | undefined => {
    const match = VOLUME_FIELD.exec(field);
    const volume = match === null ? undefined : volumes[Number(match[1])];
    if (volume?.persistentVolumeClaim === undefined || paths.claimTemplates === undefined) {
      return undefined;
    }
    const index = claimTemplateNames.indexOf(volume.name);
    return index < 0 ? undefined : index;
  };
  return (field) => {
    if (field === 'metadata.name' || field === 'metadata.generateName') {
      return paths.name ?? 'metadata.name';
    }
    const claim = claimOf(field);
    if (claim !== undefined) {
      return `${paths.claimTemplates ?? ''}[${String(claim)}].metadata.name`;
    }
    return field === '' ? paths.template : `${paths.template}.${field}`;
  };
}

/** The mapping for a claim built from `claimTemplates[index]`: every field of it is the template's. */
export function claimTemplateMapping(claimTemplatesPath: string, index: number): FieldMapping {
  const base = `${claimTemplatesPath}[${String(index)}]`;
  return (field) =>
    field === 'metadata.name' || field === 'metadata.generateName'
      ? `${base}.metadata.name`
      : field === ''
        ? base
        : `${base}.${field}`;
}

/** Field paths under `from` move under `to`, the rest keep theirs (SidecarSet: `spec.containers` of the pod are the SidecarSet's). */
export function prefixMapping(
  rules: readonly { readonly from: string; readonly to: string }[],
  fallback: string,
): FieldMapping {
  return (field) => {
    for (const rule of rules) {
      if (field === rule.from || field.startsWith(`${rule.from}[`) || field.startsWith(`${rule.from}.`)) {
        return `${rule.to}${field.slice(rule.from.length)}`;
      }
    }
    return fallback;
  };
}
