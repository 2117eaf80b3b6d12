/**
 * The `apps.kruise.io/inplace-update-state` annotation (OpenKruise's `InPlaceUpdateState`,
 * apis/apps/pub/inplace_update.go): what the last in-place update changed and what the containers
 * looked like before it, so that completion can be detected. Written byte for byte as Go's
 * encoding/json writes the struct, so OpenKruise reads (and compares) exactly its own format.
 */
import type { Pod } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { goQuote, marshalGoJson } from '@kruise-ts/revision';

import {
  annotationWithLegacy,
  INPLACE_UPDATE_STATE_ANNOTATION,
  INPLACE_UPDATE_STATE_ANNOTATION_LEGACY,
} from './annotations.ts';
import { goMap, goTime, hasEntries, members, objectMetaJson, resourceRequirementsJson } from './go-encoding.ts';
import { parseInPlaceUpdateState } from './state-schema.ts';
import type { ContainerRefMetadata, ContainerResources } from './update-spec.ts';

/** A container before the update: its imageID, to tell when the kubelet ran the new image. */
export interface InPlaceUpdateContainerStatus {
  readonly imageID?: string;
}

/** The containers that must be ready before the next batch starts. */
export interface InPlaceUpdatePreCheckBeforeNext {
  readonly containersRequiredReady?: readonly string[];
}

/** One batch of containers updated together, and when. */
export interface InPlaceUpdateContainerBatch {
  readonly timestamp: string | null;
  readonly containers: readonly string[] | null;
}

/** OpenKruise's InPlaceUpdateState, all fields. Absent optional fields are Go's omitted zero values. */
export interface InPlaceUpdateState {
  /** The revision the pod was updated to. */
  readonly revision: string;
  /** When the update started (RFC 3339, second precision, UTC), null for Go's zero time. */
  readonly updateTimestamp: string | null;
  /** imageID per updated container before the update; null when no image changed (yet). */
  readonly lastContainerStatuses: Readonly<Record<string, InPlaceUpdateContainerStatus>> | null;
  readonly updateEnvFromMetadata?: boolean;
  readonly updateResources?: boolean;
  readonly updateImages?: boolean;
  /** Images deferred to a later batch (container launch priorities; never written by kruise-ts). */
  readonly nextContainerImages?: Readonly<Record<string, string>>;
  readonly nextContainerRefMetadata?: Readonly<Record<string, ContainerRefMetadata>>;
  readonly nextContainerResources?: Readonly<Record<string, ContainerResources>>;
  readonly preCheckBeforeNext?: InPlaceUpdatePreCheckBeforeNext;
  readonly containerBatchesRecord?: readonly InPlaceUpdateContainerBatch[];
}

function stringList(list: readonly string[] | null): string {
  return list === null ? 'null' : marshalGoJson(list);
}

function batchJson(batch: InPlaceUpdateContainerBatch): string {
  return members([
    ['timestamp', goTime(batch.timestamp)],
    ['containers', stringList(batch.containers)],
  ]);
}

function preCheckJson(preCheck: InPlaceUpdatePreCheckBeforeNext): string {
  const required = preCheck.containersRequiredReady ?? [];
  return members([['containersRequiredReady', required.length > 0 ? marshalGoJson(required) : undefined]]);
}

/**
 * The annotation text, exactly Go's `json.Marshal(state)`: fields in struct order, omitempty ones left
 * out when false or empty, `lastContainerStatuses` always written (`null` when nil), maps sorted.
 * Example: `{"revision":"demo-7c9d5b4f8","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":
 * {"main":{"imageID":"docker-pullable://nginx@sha256:…"}},"updateImages":true,"containerBatchesRecord":
 * [{"timestamp":"2026-01-02T03:04:05Z","containers":["main"]}]}`.
 */
export function formatInPlaceUpdateState(state: InPlaceUpdateState): string {
  const records = state.containerBatchesRecord ?? [];
  return members([
    ['revision', goQuote(state.revision)],
    ['updateTimestamp', goTime(state.updateTimestamp)],
    [
      'lastContainerStatuses',
      goMap(state.lastContainerStatuses, (status) =>
        members([
          ['imageID', status.imageID === undefined || status.imageID === '' ? undefined : goQuote(status.imageID)],
        ]),
      ),
    ],
    ['updateEnvFromMetadata', state.updateEnvFromMetadata === true ? 'true' : undefined],
    ['updateResources', state.updateResources === true ? 'true' : undefined],
    ['updateImages', state.updateImages === true ? 'true' : undefined],
    [
      'nextContainerImages',
      hasEntries(state.nextContainerImages) ? marshalGoJson(state.nextContainerImages) : undefined,
    ],
    [
      'nextContainerRefMetadata',
      hasEntries(state.nextContainerRefMetadata) ? goMap(state.nextContainerRefMetadata, objectMetaJson) : undefined,
    ],
    [
      'nextContainerResources',
      hasEntries(state.nextContainerResources)
        ? goMap(state.nextContainerResources, resourceRequirementsJson)
        : undefined,
    ],
    ['preCheckBeforeNext', state.preCheckBeforeNext === undefined ? undefined : preCheckJson(state.preCheckBeforeNext)],
    ['containerBatchesRecord', records.length > 0 ? `[${records.map(batchJson).join(',')}]` : undefined],
  ]);
}

/** The state annotation as read: absent, parsed, or not something Go could decode. */
export type StateAnnotation =
  | { readonly kind: 'absent' }
  | { readonly kind: 'state'; readonly state: InPlaceUpdateState }
  | { readonly kind: 'malformed'; readonly error: string };

/** Reads the state annotation (new key, then the legacy key), telling a malformed one apart. */
export function stateAnnotation(pod: DeepReadonly<Pod>): StateAnnotation {
  const text = annotationWithLegacy(pod, INPLACE_UPDATE_STATE_ANNOTATION, INPLACE_UPDATE_STATE_ANNOTATION_LEGACY);
  if (text === undefined) {
    return { kind: 'absent' };
  }
  // Every pod's annotation is read on every reconcile, and a cached pod never changes: parse (JSON and
  // zod) once per pod object. The result is frozen, since callers share it.
  const known = parsedStates.get(pod);
  if (known?.text === text) {
    return known.read;
  }
  const parsed = parseInPlaceUpdateState(text);
  const read: StateAnnotation =
    typeof parsed === 'string'
      ? { kind: 'malformed', error: parsed }
      : { kind: 'state', state: deepFreeze<InPlaceUpdateState>(parsed) };
  parsedStates.set(pod, { text, read });
  return read;
}

const parsedStates = new WeakMap<DeepReadonly<Pod>, { readonly text: string; readonly read: StateAnnotation }>();

/**
 * The pod's in-place update state (new annotation key, then the legacy `inplace-update-state`), or
 * undefined when there is none. A malformed annotation also reads as undefined here; completion
 * checks treat it as "not completed", as OpenKruise does.
 */
export function readInPlaceUpdateState(pod: DeepReadonly<Pod>): InPlaceUpdateState | undefined {
  const read = stateAnnotation(pod);
  return read.kind === 'state' ? read.state : undefined;
}
