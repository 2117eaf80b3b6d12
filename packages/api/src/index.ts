/**
 * @kruise-ts/api: the apps.kruise.io API as zod schemas (the single source of truth), the TypeScript
 * types inferred from them, the well-known names controllers share, and the zod → CRD generator.
 *
 * STOP: this file is the public API of @kruise-ts/api. Add explicit named exports only (no `export *`).
 */

// Wire forms of Kubernetes objects (client-node models with timestamps as strings).
export type {
  ControllerRevision,
  CoreEvent,
  Lease,
  Node,
  ObjectMeta,
  OwnerReference,
  PersistentVolumeClaim,
  Pod,
  PodTemplateSpec,
  Wire,
} from './meta/wire.ts';

// Common meta types.
export { objectMetaSchema, ownerReferenceSchema } from './meta/object-meta.ts';
export {
  intOrPercentSchema,
  intOrStringSchema,
  parseIntOrPercent,
  PERCENT_AT_MOST_100_PATTERN,
  PERCENT_PATTERN,
  scaledValueFromIntOrPercent,
} from './meta/int-or-string.ts';
export type { IntOrPercent, IntOrPercentOptions, IntOrString, ScaledValueOptions } from './meta/int-or-string.ts';
export {
  LABEL_KEY_PATTERN,
  LABEL_VALUE_PATTERN,
  labelKeySchema,
  labelSelectorRequirementSchema,
  labelSelectorSchema,
  LabelSelectorOperator,
  labelValueSchema,
  MAX_LABEL_KEY_LENGTH,
  MAX_SELECTOR_MATCH_EXPRESSIONS,
  MAX_SELECTOR_MATCH_LABELS,
  MAX_SELECTOR_REQUIREMENT_VALUES,
} from './meta/label-selector.ts';
export type { LabelSelector, LabelSelectorRequirement } from './meta/label-selector.ts';

// Shared apps.kruise.io types (apis/apps/pub).
export {
  LIFECYCLE_STATE_LABEL,
  LIFECYCLE_TIMESTAMP_ANNOTATION,
  LifecycleState,
  lifecycleHookSchema,
  lifecycleSchema,
} from './apps/pub/lifecycle.ts';
export type { Lifecycle, LifecycleHook } from './apps/pub/lifecycle.ts';
export { IN_PLACE_UPDATE_READY, inPlaceUpdateStrategySchema, KRUISE_POD_READY } from './apps/pub/in-place-update.ts';
export type { InPlaceUpdateStrategy } from './apps/pub/in-place-update.ts';
export {
  MAX_WEIGHT_PRIORITY_TERMS,
  updatePriorityOrderTermSchema,
  updatePriorityStrategySchema,
  updatePriorityWeightTermSchema,
} from './apps/pub/update-priority.ts';
export type {
  UpdatePriorityOrderTerm,
  UpdatePriorityStrategy,
  UpdatePriorityWeightTerm,
} from './apps/pub/update-priority.ts';

// Labels and annotations on pods, PVCs, revisions and workloads.
export {
  CLONESET_INSTANCE_ID_LABEL,
  CLONESET_SCALING_EXCLUDE_PREPARING_DELETE_LABEL,
  CONTAINER_BARRIER_ENV,
  CONTAINER_LAUNCH_PRIORITY_ANNOTATION,
  CONTAINER_PRIORITY_ENV,
  CONTROLLER_REVISION_HASH_KEY,
  CONTROLLER_REVISION_HASH_LABEL,
  DELETE_PROTECTION_LABEL,
  DeleteProtection,
  IMAGE_PRE_DOWNLOAD_CREATED_LABEL,
  IMAGE_PRE_DOWNLOAD_IGNORED_LABEL,
  IMAGE_PRE_DOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION,
  IMAGE_PRE_DOWNLOAD_PARALLELISM_ANNOTATION,
  IMAGE_PRE_DOWNLOAD_TIMEOUT_SECONDS_ANNOTATION,
  IN_PLACE_UPDATE_GRACE_ANNOTATION,
  IN_PLACE_UPDATE_GRACE_ANNOTATION_LEGACY,
  IN_PLACE_UPDATE_STATE_ANNOTATION,
  IN_PLACE_UPDATE_STATE_ANNOTATION_LEGACY,
  KRUISE_CONTROLLER_REVISION_HASH_LABEL,
  POD_DELETION_COST_ANNOTATION,
  POD_TEMPLATE_HASH_LABEL,
  RUNTIME_CONTAINERS_META_ANNOTATION,
  POD_INDEX_LABEL,
  SPECIFIED_DELETE_LABEL,
  STATEFULSET_POD_NAME_LABEL,
  UNAVAILABLE_POD_LABEL_PREFIX,
  VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION,
} from './apps/well-known-labels.ts';

// apps.kruise.io/v1alpha1 CloneSet.
export {
  APPS_KRUISE_IO_GROUP,
  APPS_KRUISE_IO_V1ALPHA1,
  CLONESET_CRD_NAME,
  CLONESET_KIND,
  CLONESET_LIST_KIND,
  CLONESET_PLURAL,
  CLONESET_SHORT_NAME,
  CLONESET_SINGULAR,
  V1ALPHA1,
} from './apps/v1alpha1/group-version.ts';
export { cloneSetListSchema, cloneSetSchema } from './apps/v1alpha1/cloneset.ts';
export type { CloneSet, CloneSetInput, CloneSetList } from './apps/v1alpha1/cloneset.ts';
export { cloneSetSpecSchema } from './apps/v1alpha1/cloneset-spec.ts';
export type { CloneSetSpec, CloneSetSpecInput } from './apps/v1alpha1/cloneset-spec.ts';
export { cloneSetPodTemplateSchema, volumeClaimTemplateSchema } from './apps/v1alpha1/cloneset-pod-template.ts';
export { cloneSetScaleStrategySchema } from './apps/v1alpha1/cloneset-scale-strategy.ts';
export type { CloneSetScaleStrategy } from './apps/v1alpha1/cloneset-scale-strategy.ts';
export {
  cloneSetUpdateStrategySchema,
  CloneSetUpdateStrategyType,
  DEFAULT_CLONESET_MAX_UNAVAILABLE,
} from './apps/v1alpha1/cloneset-update-strategy.ts';
export type { CloneSetUpdateStrategy } from './apps/v1alpha1/cloneset-update-strategy.ts';
export { updateScatterStrategySchema, updateScatterTermSchema } from './apps/v1alpha1/update-scatter-strategy.ts';
export type { UpdateScatterStrategy, UpdateScatterTerm } from './apps/v1alpha1/update-scatter-strategy.ts';
export {
  cloneSetConditionSchema,
  CloneSetConditionReason,
  CloneSetConditionType,
  cloneSetStatusSchema,
  ConditionStatus,
} from './apps/v1alpha1/cloneset-status.ts';
export type { CloneSetCondition, CloneSetStatus } from './apps/v1alpha1/cloneset-status.ts';
export { CloneSetEventReason } from './apps/v1alpha1/cloneset-events.ts';
export { CLONESET_PRINTER_COLUMNS, cloneSetCrdDefinition } from './apps/v1alpha1/cloneset-crd.ts';

// The zod → CRD generator.
export { crdMetaOf, crdSchemaRegistry, withCrdMeta, withDescription } from './crd/schema-metadata.ts';
export type { CelValidationRule, CrdSchemaMeta, CrdSchemaRegistry } from './crd/schema-metadata.ts';
export { CrdSchemaError, toOpenApiSchema } from './crd/openapi-schema.ts';
export type { JsonValue, OpenApiSchema } from './crd/openapi-types.ts';
export { findStructuralViolations } from './crd/structural-schema.ts';
export { buildCustomResourceDefinition } from './crd/custom-resource-definition.ts';
export type {
  CrdConversion,
  CrdDefinition,
  CrdNames,
  CrdSubresources,
  CrdVersionDefinition,
  CustomResourceDefinitionManifest,
  GeneratedConversion,
  GeneratedVersion,
  PrinterColumn,
  ScaleSubresource,
} from './crd/custom-resource-definition.ts';
export { renderManifestYaml } from './crd/render-yaml.ts';
export type { RenderManifestOptions } from './crd/render-yaml.ts';
export {
  CHART_CRD_ANNOTATIONS,
  CHART_CRDS_DIRECTORY,
  CRD_DEFINITIONS,
  CRDS_DIRECTORY,
  renderAllCrdFiles,
  renderChartCrdFiles,
  renderCrdFiles,
} from './crd/crd-files.ts';
export type { RenderedCrdFile } from './crd/crd-files.ts';

// apps.kruise.io/v1alpha1 and v1beta1 Advanced StatefulSet.
export {
  APPS_KRUISE_IO_V1BETA1,
  STATEFULSET_CRD_NAME,
  STATEFULSET_KIND,
  STATEFULSET_LIST_KIND,
  STATEFULSET_PLURAL,
  STATEFULSET_SHORT_NAMES,
  STATEFULSET_SINGULAR,
  V1BETA1,
} from './apps/v1beta1/group-version.ts';
export { statefulSetSchema, statefulSetV1alpha1Schema } from './apps/v1beta1/statefulset.ts';
export type { StatefulSet, StatefulSetInput } from './apps/v1beta1/statefulset.ts';
export {
  PersistentVolumeClaimRetentionPolicyType,
  PodManagementPolicyType,
  STATEFULSET_V1BETA1_ONLY_SPEC_FIELDS,
  statefulSetSpecSchema,
} from './apps/v1beta1/statefulset-spec.ts';
export type { StatefulSetSpec, StatefulSetSpecInput } from './apps/v1beta1/statefulset-spec.ts';
export {
  MAX_MIN_READY_SECONDS,
  PodUpdatePolicyType,
  rollingUpdateStatefulSetStrategySchema,
  StatefulSetUpdateStrategyType,
  statefulSetUpdateStrategySchema,
} from './apps/v1beta1/statefulset-update-strategy.ts';
export type {
  RollingUpdateStatefulSetStrategy,
  StatefulSetUpdateStrategy,
} from './apps/v1beta1/statefulset-update-strategy.ts';
export {
  StatefulSetConditionType,
  statefulSetConditionSchema,
  statefulSetStatusSchema,
  volumeClaimStatusSchema,
} from './apps/v1beta1/statefulset-status.ts';
export type { StatefulSetCondition, StatefulSetStatus } from './apps/v1beta1/statefulset-status.ts';
export { StatefulSetEventReason } from './apps/v1beta1/statefulset-events.ts';
export { STATEFULSET_PRINTER_COLUMNS, statefulSetCrdDefinition } from './apps/v1beta1/statefulset-crd.ts';

// apps.kruise.io/v1alpha1 and v1beta1 SidecarSet.
export {
  SIDECAR_INJECTED_ENV,
  SIDECARSET_CRD_NAME,
  SIDECARSET_CUSTOM_VERSION_LABEL,
  SIDECARSET_HASH_ANNOTATION,
  SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION,
  SIDECARSET_INJECTED_LIST_ANNOTATION,
  SIDECARSET_INPLACE_UPDATE_STATE_ANNOTATION,
  SIDECARSET_KIND,
  SIDECARSET_LIST_KIND,
  SIDECARSET_NAME_LABEL,
  SIDECARSET_PLURAL,
  SIDECARSET_SINGULAR,
  SIDECARSET_VERSION_ALT_ANNOTATION_PREFIX,
  SIDECARSET_VERSION_ANNOTATION_PREFIX,
  SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION,
} from './apps/v1alpha1/sidecarset-names.ts';
export { sidecarSetSchema, sidecarSetV1alpha1Schema, sidecarSetV1beta1Schema } from './apps/v1alpha1/sidecarset.ts';
export type { SidecarSet, SidecarSetInput } from './apps/v1alpha1/sidecarset.ts';
export { sidecarSetSpecSchema } from './apps/v1alpha1/sidecarset-spec.ts';
export type { SidecarSetSpec, SidecarSetSpecInput } from './apps/v1alpha1/sidecarset-spec.ts';
export {
  MAX_SIDECARS,
  PodInjectPolicy,
  ShareVolumePolicyType,
  SidecarUpgradeType,
  sidecarContainerOfContainersSchema,
  sidecarContainerOfInitContainersSchema,
} from './apps/v1alpha1/sidecarset-container.ts';
export type { SidecarContainer } from './apps/v1alpha1/sidecarset-container.ts';
export {
  patchPodMetadataSchema,
  SidecarSetInjectRevisionPolicy,
  sidecarSetInjectionStrategySchema,
  SidecarSetPatchPolicy,
  SidecarSetUpdateStrategyType,
  sidecarSetUpdateStrategySchema,
} from './apps/v1alpha1/sidecarset-strategies.ts';
export type {
  PatchPodMetadata,
  SidecarSetInjectionStrategy,
  SidecarSetUpdateStrategy,
} from './apps/v1alpha1/sidecarset-strategies.ts';
export { sidecarSetStatusSchema } from './apps/v1alpha1/sidecarset-status.ts';
export type { SidecarSetStatus } from './apps/v1alpha1/sidecarset-status.ts';
export { SIDECARSET_PRINTER_COLUMNS, sidecarSetCrdDefinition } from './apps/v1alpha1/sidecarset-crd.ts';

// apps.kruise.io/v1alpha1 and v1beta1 BroadcastJob.
export {
  BROADCASTJOB_CONTROLLER_UID_LABEL,
  BROADCASTJOB_CRD_NAME,
  BROADCASTJOB_DEFAULT_PARALLELISM,
  BROADCASTJOB_KIND,
  BROADCASTJOB_LIST_KIND,
  BROADCASTJOB_NAME_LABEL,
  BROADCASTJOB_PLURAL,
  BROADCASTJOB_SHORT_NAME,
  BROADCASTJOB_SINGULAR,
  BroadcastJobConditionType,
  BroadcastJobPhase,
} from './apps/v1alpha1/broadcastjob-names.ts';
export { broadcastJobSchema } from './apps/v1alpha1/broadcastjob.ts';
export type { BroadcastJob, BroadcastJobInput } from './apps/v1alpha1/broadcastjob.ts';
export { broadcastJobSpecSchema, CompletionPolicyType, FailurePolicyType } from './apps/v1alpha1/broadcastjob-spec.ts';
export type { BroadcastJobSpec, BroadcastJobSpecInput } from './apps/v1alpha1/broadcastjob-spec.ts';
export { broadcastJobConditionSchema, broadcastJobStatusSchema } from './apps/v1alpha1/broadcastjob-status.ts';
export type { BroadcastJobCondition, BroadcastJobStatus } from './apps/v1alpha1/broadcastjob-status.ts';
export { BROADCASTJOB_PRINTER_COLUMNS, broadcastJobCrdDefinition } from './apps/v1alpha1/broadcastjob-crd.ts';

// Conversion between the served versions of a kind (the conversion webhook's logic).
export { CONVERSION_WEBHOOK_PATH, DEFAULT_CONVERSION_SERVICE } from './crd/conversion-webhook-service.ts';
export { convertObject } from './conversion/convert-object.ts';
export type { ConversionResult } from './conversion/convert-object.ts';
export { CONVERSION_ANNOTATION_PREFIX, conversionAnnotation } from './conversion/conversion-record.ts';
