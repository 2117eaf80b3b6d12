/**
 * Whether a pod can move from one revision to another in place, and what changes
 * (OpenKruise's defaultCalculateInPlaceUpdateSpec, pkg/util/inplaceupdate/inplace_update_defaults.go):
 * the two pod templates are diffed; metadata changes are always applied in place; in the spec only
 * container images, and with InPlaceWorkloadVerticalScaling the cpu/memory amounts of containers,
 * may change; anything else means recreating the pod.
 */
import type { ControllerRevision, PodTemplateSpec } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { templateFromRevision, VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION } from '@kruise-ts/revision';

import { describePath, diffJson } from './json-diff.ts';
import type { DiffOperation } from './json-diff.ts';
import { envFromMetadataChanges } from './metadata-changes.ts';
import { podQosClass } from './qos.ts';
import { resourceOperationProblem } from './resource-operation.ts';
import type { ContainerResources, InPlaceDecision, UpdateSpec } from './update-spec.ts';

/** The feature gates that change the decision. */
export interface InPlaceUpdateGates {
  /** InPlaceWorkloadVerticalScaling: cpu/memory changes are resized in place. */
  readonly verticalScaling: boolean;
  /** InPlaceUpdateEnvFromMetadata: containers whose env reads a changed label/annotation are restarted. */
  readonly envFromMetadata: boolean;
  /** RecreatePodWhenChangeVCTInCloneSetGate: a volumeClaimTemplates change recreates pods. */
  readonly recreateOnVolumeClaimTemplatesChange: boolean;
}

/** Input of {@link calculateInPlaceUpdateSpec}. */
export interface CalculateInPlaceUpdateSpecInput {
  /** The revision the pod is at. */
  readonly oldRevision: DeepReadonly<ControllerRevision>;
  /** The revision to move it to; its name becomes the spec's revision. */
  readonly newRevision: DeepReadonly<ControllerRevision>;
  /** inPlaceUpdateStrategy.gracePeriodSeconds (0 when unset). */
  readonly gracePeriodSeconds: number;
  /** The update type is InPlaceOnly (volumeClaimTemplates changes are then ignored). */
  readonly inPlaceOnly: boolean;
  readonly gates: InPlaceUpdateGates;
}

const IMAGE_PATH = /^spec\.containers\[(\d+)\]\.image$/;
const RESOURCES_PATH = /^spec\.containers\[\d+\]\.resources\./;

type Template = PodTemplateSpec;

function recreate(reason: string): InPlaceDecision {
  return { kind: 'recreate', reason };
}

function revisionName(revision: DeepReadonly<ControllerRevision>): string {
  return revision.metadata?.name ?? '';
}

/** `CanVCTemplateInplaceUpdate`: different when both revisions carry the hash and the hashes differ. */
function volumeClaimTemplatesProblem(input: CalculateInPlaceUpdateSpecInput): string | undefined {
  if (!input.gates.recreateOnVolumeClaimTemplatesChange || input.inPlaceOnly) {
    return undefined;
  }
  const before = input.oldRevision.metadata?.annotations?.[VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION];
  const after = input.newRevision.metadata?.annotations?.[VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION];
  if (before === undefined || after === undefined || before === after) {
    return undefined;
  }
  return `volumeClaimTemplates changed (hash ${JSON.stringify(before)} → ${JSON.stringify(after)}) and RecreatePodWhenChangeVCTInCloneSetGate is on`;
}

function readTemplate(revision: DeepReadonly<ControllerRevision>): Template | string {
  try {
    return templateFromRevision(revision);
  } catch (error) {
    return `revision ${revisionName(revision)} holds no pod template: ${error instanceof Error ? error.message : String(error)}`;
  }
}

interface SpecChanges {
  readonly containerImages: Record<string, string>;
  readonly containerResources: Record<string, ContainerResources>;
}

interface SpecOperationContext {
  readonly operation: DiffOperation;
  readonly oldTemplate: Template;
  readonly changes: SpecChanges;
  readonly verticalScaling: boolean;
}

function verb(operation: DiffOperation): string {
  return operation.op === 'add' ? 'added' : operation.op === 'remove' ? 'removed' : 'changed';
}

/** Records an image or resource change; returns why the operation cannot be applied in place otherwise. */
function applySpecOperation(context: SpecOperationContext): string | undefined {
  const { operation, oldTemplate, changes } = context;
  const where = describePath(operation.path);
  if (RESOURCES_PATH.test(where)) {
    return context.verticalScaling
      ? resourceOperationProblem(operation, oldTemplate, changes.containerResources)
      : `${where} ${verb(operation)} (in-place vertical scaling is off)`;
  }
  const image = IMAGE_PATH.exec(where);
  const container = image === null ? undefined : oldTemplate.spec?.containers[Number(image[1])];
  if (operation.op !== 'replace' || container === undefined || typeof operation.value !== 'string') {
    return `${where} ${verb(operation)}`;
  }
  changes.containerImages[container.name] = operation.value;
  return undefined;
}

function qosProblem(oldTemplate: Template, newTemplate: Template): string | undefined {
  try {
    const before = podQosClass(oldTemplate.spec);
    const after = podQosClass(newTemplate.spec);
    return before === after ? undefined : `the pod QoS class would change from ${before} to ${after}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

interface Templates {
  readonly oldTemplate: Template;
  readonly newTemplate: Template;
}

/** The spec's container changes, or the reason the spec cannot change in place. */
function specChanges(
  templates: Templates,
  operations: readonly DiffOperation[],
  verticalScaling: boolean,
): SpecChanges | string {
  const changes: SpecChanges = { containerImages: {}, containerResources: {} };
  for (const operation of operations) {
    const problem =
      operation.path[0] === 'spec' && operation.path.length > 1
        ? applySpecOperation({ operation, oldTemplate: templates.oldTemplate, changes, verticalScaling })
        : `template ${describePath(operation.path)} changed`;
    if (problem !== undefined) {
      return problem;
    }
  }
  const resized = verticalScaling && Object.keys(changes.containerResources).length > 0;
  return (resized ? qosProblem(templates.oldTemplate, templates.newTemplate) : undefined) ?? changes;
}

/** Both templates (copies), or why the pod must be recreated before any diff. */
function readTemplates(input: CalculateInPlaceUpdateSpecInput): Templates | string {
  const volumeProblem = volumeClaimTemplatesProblem(input);
  if (volumeProblem !== undefined) {
    return volumeProblem;
  }
  const oldTemplate = readTemplate(input.oldRevision);
  if (typeof oldTemplate === 'string') {
    return oldTemplate;
  }
  const newTemplate = readTemplate(input.newRevision);
  return typeof newTemplate === 'string' ? newTemplate : { oldTemplate, newTemplate };
}

function isMetadataOperation(operation: DiffOperation): boolean {
  return operation.path[0] === 'metadata' && operation.path.length > 1;
}

/**
 * The decision for moving a pod from `oldRevision` to `newRevision`: in place with the spec of what
 * changes, or recreate with the first reason found (for example `spec.containers[0].env[0].value
 * changed`). Pure; the gates come from the caller.
 */
export function calculateInPlaceUpdateSpec(input: CalculateInPlaceUpdateSpecInput): InPlaceDecision {
  const templates = readTemplates(input);
  if (typeof templates === 'string') {
    return recreate(templates);
  }
  const operations = diffJson(templates.oldTemplate, templates.newTemplate);
  const changes = specChanges(
    templates,
    operations.filter((operation) => !isMetadataOperation(operation)),
    input.gates.verticalScaling,
  );
  if (typeof changes === 'string') {
    return recreate(changes);
  }
  const metadata = envFromMetadataChanges({
    ...templates,
    operations: operations.filter(isMetadataOperation),
    envFromMetadata: input.gates.envFromMetadata,
  });
  const spec: UpdateSpec = {
    revision: revisionName(input.newRevision),
    containerImages: changes.containerImages,
    containerRefMetadata: metadata.containerRefMetadata,
    containerResources: changes.containerResources,
    metadataPatch: metadata.metadataPatch,
    updateEnvFromMetadata: metadata.updateEnvFromMetadata,
    graceSeconds: input.gracePeriodSeconds,
  };
  return { kind: 'in-place', spec };
}
