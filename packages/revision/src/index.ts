/**
 * @kruise-ts/revision: ControllerRevisions of a workload's pod template whose data and hash are byte
 * for byte OpenKruise's, so that a workload created under OpenKruise is taken over without re-rolling
 * its pods; plus history ordering, update/current revision selection, truncation and pod matching.
 *
 * STOP: this file is the public API of @kruise-ts/revision. Add explicit named exports only (no `export *`).
 */

// Revision data, hash and name.
export { revisionData, templateFromRevision } from './internal/revision-data.ts';
export { hashRevision, revisionName, safeEncodeString, shortHash } from './internal/revision-hash.ts';
export { TemplateDecodeError } from './internal/typed-round-trip.ts';
export { QuantityError } from './internal/quantity.ts';
export { TimeError } from './internal/go-time.ts';
export { FIELD_TABLE_K8S_API_VERSION } from './internal/pod-template-fields.generated.ts';

// Revision objects.
export {
  controllerRevisionFromCandidate,
  controllerRevisionResource,
  newControllerRevision,
  templateCandidate,
} from './internal/controller-revision.ts';
export type {
  NewControllerRevisionOptions,
  RevisionCandidate,
  RevisionFromCandidateOptions,
  RevisionOwner,
} from './internal/controller-revision.ts';

// History: ordering, selection, truncation.
export {
  currentRevisionFor,
  DEFAULT_REVISION_HISTORY_LIMIT,
  equalRevision,
  liveRevisionNames,
  nextRevisionNumber,
  planUpdateRevision,
  revisionsToTruncate,
  sortRevisions,
} from './internal/revision-history.ts';
export type {
  CurrentRevisionOptions,
  LiveRevisionOptions,
  PlanUpdateRevisionOptions,
  RevisionLike,
  TruncateOptions,
  UpdateRevisionPlan,
} from './internal/revision-history.ts';

// The writes.
export {
  ensureUpdateRevision,
  MAX_COLLISION_RETRIES,
  MAX_CONFLICT_RETRIES,
} from './internal/ensure-update-revision.ts';
export type {
  EnsureUpdateRevisionOptions,
  RevisionClient,
  UpdateRevisionResult,
} from './internal/ensure-update-revision.ts';

// The volumeClaimTemplates hash of a revision (kruise.io/cloneset-volumeclaimtemplate-hash).
export {
  VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION,
  volumeClaimTemplatesHash,
} from './internal/volume-claim-templates-hash.ts';

// Go encoding helpers shared with the other workload packages (in-place update state, env hashes).
export { compareGoStrings, goQuote, marshalGoJson } from './internal/go-json.ts';
export { marshalTypedJson } from './internal/typed-marshal.ts';
export { POD_TEMPLATE_STRUCTS } from './internal/pod-template-fields.generated.ts';
export type { GoField, GoStructTable } from './internal/go-struct-table.ts';
export type { JsonValue } from './internal/go-json.ts';
export { deepHashJsonBytes, fnv1aHash32 } from './internal/go-hash.ts';
export { canonicalQuantity, quantityValue } from './internal/quantity.ts';
export type { Decimal } from './internal/quantity.ts';
export { canonicalTime } from './internal/go-time.ts';

// Pods and revisions.
export { isPodAtRevision, podRevision, revisionLabels } from './internal/pod-revision-labels.ts';
export type { PodLike, RevisionLabelOptions } from './internal/pod-revision-labels.ts';

// A workload's revisions for one reconcile: claimed, ensured, truncated.
export { activeRevisions, truncateHistory } from './internal/workload-revisions.ts';
export type {
  ActiveRevisions,
  ActiveRevisionsInput,
  RevisionStore,
  TruncateHistoryInput,
} from './internal/workload-revisions.ts';
export {
  addDecimals,
  compareDecimals,
  parseQuantityText,
  quantitiesEqual,
  resourceListsEqual,
} from './internal/quantity-math.ts';
