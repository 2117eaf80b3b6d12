/**
 * The kinds the tool names on its command line, with every spelling kubectl accepts for them. The
 * order is kubectl's preference when a name is ambiguous: the native kinds of the `apps` group come
 * first, so `sts` and `statefulset` mean the native StatefulSet, as they do in kubectl.
 */
import {
  APPS_KRUISE_IO_GROUP,
  BROADCASTJOB_KIND,
  BROADCASTJOB_PLURAL,
  BROADCASTJOB_SHORT_NAME,
  BROADCASTJOB_SINGULAR,
  CLONESET_KIND,
  CLONESET_PLURAL,
  CLONESET_SHORT_NAME,
  CLONESET_SINGULAR,
  SIDECARSET_KIND,
  SIDECARSET_PLURAL,
  SIDECARSET_SINGULAR,
  STATEFULSET_KIND,
  STATEFULSET_PLURAL,
  STATEFULSET_SHORT_NAMES,
  STATEFULSET_SINGULAR,
  V1ALPHA1,
  V1BETA1,
} from '@kruise-ts/api';

export type KindId =
  'deployment' | 'native-statefulset' | 'cloneset' | 'advanced-statefulset' | 'sidecarset' | 'broadcastjob';

export interface Kind {
  readonly id: KindId;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
}

export const KINDS: readonly Kind[] = [
  {
    id: 'deployment',
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    singular: 'deployment',
    shortNames: ['deploy'],
  },
  {
    id: 'native-statefulset',
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    singular: 'statefulset',
    shortNames: ['sts'],
  },
  {
    id: 'cloneset',
    group: APPS_KRUISE_IO_GROUP,
    version: V1ALPHA1,
    kind: CLONESET_KIND,
    plural: CLONESET_PLURAL,
    singular: CLONESET_SINGULAR,
    shortNames: [CLONESET_SHORT_NAME],
  },
  {
    id: 'advanced-statefulset',
    group: APPS_KRUISE_IO_GROUP,
    version: V1BETA1,
    kind: STATEFULSET_KIND,
    plural: STATEFULSET_PLURAL,
    singular: STATEFULSET_SINGULAR,
    shortNames: STATEFULSET_SHORT_NAMES,
  },
  {
    id: 'sidecarset',
    group: APPS_KRUISE_IO_GROUP,
    version: V1ALPHA1,
    kind: SIDECARSET_KIND,
    plural: SIDECARSET_PLURAL,
    singular: SIDECARSET_SINGULAR,
    shortNames: [],
  },
  {
    id: 'broadcastjob',
    group: APPS_KRUISE_IO_GROUP,
    version: V1ALPHA1,
    kind: BROADCASTJOB_KIND,
    plural: BROADCASTJOB_PLURAL,
    singular: BROADCASTJOB_SINGULAR,
    shortNames: [BROADCASTJOB_SHORT_NAME],
  },
];

/** How kubectl prints an object it changed: `cloneset.apps.kruise.io/web`. */
export function objectDisplayName(kind: Kind, name: string): string {
  return `${kind.singular}.${kind.group}/${name}`;
}

/** How kubectl names an object in an error: `clonesets.apps.kruise.io "web"`. */
export function objectErrorName(kind: Kind, name: string): string {
  return `${kind.plural}.${kind.group} ${JSON.stringify(name)}`;
}

/** A short name that means this kind alone (else its name), for hints: `clone`, `asts`, `sidecarset`. */
export function preferredSpelling(kind: Kind): string {
  const own = kind.shortNames.filter((name) => resolveKind(name) === kind);
  return (
    own[own.length - 1] ?? (resolveKind(kind.singular) === kind ? kind.singular : `${kind.singular}.${kind.group}`)
  );
}

/**
 * The kind a resource type names: `cloneset`, `clonesets`, `clone`, `CloneSet`, `cloneset.apps.kruise.io`
 * or `cloneset.v1alpha1.apps.kruise.io`; undefined when none does.
 */
export function resolveKind(type: string): Kind | undefined {
  const lower = type.toLowerCase();
  const dot = lower.indexOf('.');
  const resource = dot < 0 ? lower : lower.slice(0, dot);
  const qualifier = dot < 0 ? undefined : lower.slice(dot + 1);
  return KINDS.find(
    (kind) =>
      spellings(kind).includes(resource) &&
      (qualifier === undefined || qualifier === kind.group || qualifier === `${kind.version}.${kind.group}`),
  );
}

function spellings(kind: Kind): readonly string[] {
  return [kind.plural, kind.singular, kind.kind.toLowerCase(), ...kind.shortNames];
}
