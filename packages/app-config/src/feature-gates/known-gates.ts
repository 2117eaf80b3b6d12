/**
 * Every feature gate kruise-ts accepts: all of OpenKruise's (`pkg/features/kruise_features.go`, v1.9)
 * with their defaults and stages, so that an existing `--feature-gates` string (including the Helm
 * chart's `ImagePullJobGate=true`) keeps working, plus one gate per kruise-ts app.
 */

/** Maturity of a gate, as Kubernetes `featuregate.PreRelease`. */
export type FeatureGateStage = 'Alpha' | 'Beta' | 'GA';

/** The workloads kruise-ts implements (or will). */
export type FeatureGateApp = 'CloneSet' | 'AdvancedStatefulSet' | 'SidecarSet' | 'BroadcastJob';

/** What kruise-ts knows about one gate. */
export interface FeatureGateSpec {
  readonly default: boolean;
  readonly stage: FeatureGateStage;
  /** `openkruise`: accepted for compatibility with OpenKruise; `kruise-ts`: our own. */
  readonly origin: 'openkruise' | 'kruise-ts';
  /**
   * Whether kruise-ts code honours the gate today: some behaviour changes with its value. An accepted
   * but unimplemented gate parses and can be queried, but nothing depends on it yet (turning it on
   * logs a warning at start-up); whoever implements the behaviour flips this flag. A test fails when
   * this flag and the code disagree (`implemented-gates.test.ts`).
   */
  readonly implemented: boolean;
  /**
   * kruise-ts always behaves as OpenKruise does with this gate on, whatever its value (for example
   * expectations that time out): turning it on is not worth a warning, turning it off changes nothing.
   */
  readonly alwaysOn?: true;
  /** The kruise-ts apps the gate affects (empty: only OpenKruise components we do not reimplement). */
  readonly apps: readonly FeatureGateApp[];
  readonly description: string;
}

const CS = 'CloneSet';
const ASTS = 'AdvancedStatefulSet';
const SS = 'SidecarSet';
const BJ = 'BroadcastJob';

function openkruise(
  defaults: { readonly default: boolean; readonly stage: FeatureGateStage },
  apps: readonly FeatureGateApp[],
  description: string,
): FeatureGateSpec {
  return { ...defaults, origin: 'openkruise', implemented: false, apps, description };
}

/** An OpenKruise gate whose behaviour kruise-ts implements. */
function implemented(spec: FeatureGateSpec): FeatureGateSpec {
  return { ...spec, implemented: true };
}

const ALPHA_OFF = { default: false, stage: 'Alpha' } as const;
const BETA_ON = { default: true, stage: 'Beta' } as const;
const BETA_OFF = { default: false, stage: 'Beta' } as const;

/** OpenKruise's gates (spec §13), keyed by their exact, case-sensitive names. */
const OPENKRUISE_GATES = {
  KruiseDaemon: openkruise(
    BETA_ON,
    [CS, ASTS],
    'Features relying on kruise-daemon (image pulling, container restart, runtime metadata).',
  ),
  PodWebhook: implemented(
    openkruise(
      BETA_ON,
      [SS, CS, ASTS],
      'The Pod admission webhook (sidecar injection, readiness gate, PUB, WorkloadSpread).',
    ),
  ),
  DaemonWatchingPod: openkruise(BETA_ON, [], 'kruise-daemon watches the pods on its node.'),
  CloneSetShortHash: implemented(
    openkruise(ALPHA_OFF, [CS], 'The pod controller-revision-hash label holds only the short hash.'),
  ),
  KruisePodReadinessGate: openkruise(
    ALPHA_OFF,
    [CS, ASTS],
    'Inject the KruisePodReady readiness gate into all pods, not only Kruise-owned ones.',
  ),
  PreDownloadImageForInPlaceUpdate: openkruise(
    ALPHA_OFF,
    [CS, ASTS],
    'Create ImagePullJobs to pre-download images before in-place updates.',
  ),
  CloneSetPartitionRollback: implemented(
    openkruise(ALPHA_OFF, [CS], 'Roll pods back to currentRevision when updated pods exceed replicas - partition.'),
  ),
  ResourcesDeletionProtection: openkruise(
    BETA_OFF,
    [CS, ASTS],
    'Deletion protection webhook for namespaces, services, CRDs and workloads.',
  ),
  PodUnavailableBudgetDeleteGate: openkruise(
    BETA_ON,
    [CS, ASTS],
    'PodUnavailableBudget protects pod deletion and eviction.',
  ),
  PodUnavailableBudgetUpdateGate: openkruise(ALPHA_OFF, [CS, SS], 'PodUnavailableBudget protects in-place updates.'),
  WorkloadSpread: openkruise(BETA_ON, [CS, ASTS], 'The WorkloadSpread controller and webhooks.'),
  TemplateNoDefaults: openkruise(ALPHA_OFF, [CS, ASTS, BJ], 'Webhooks do not inject pod and PVC template defaults.'),
  InPlaceUpdateEnvFromMetadata: implemented(
    openkruise(BETA_ON, [CS, ASTS], 'In-place update of containers whose env comes from changed labels/annotations.'),
  ),
  StatefulSetAutoDeletePVC: implemented(openkruise(BETA_ON, [ASTS], 'PVC retention policy for StatefulSets.')),
  SidecarSetPatchPodMetadataDefaultsAllowed: implemented(
    openkruise(ALPHA_OFF, [SS], 'SidecarSet may patch pod metadata by default.'),
  ),
  SidecarTerminator: openkruise(
    ALPHA_OFF,
    [BJ],
    'Stop sidecars when the main containers of Never/OnFailure pods exit.',
  ),
  PodProbeMarkerGate: openkruise(BETA_ON, [], 'PodProbeMarker custom probes.'),
  PreDownloadImageForDaemonSetUpdate: openkruise(ALPHA_OFF, [], 'Pre-download images for Advanced DaemonSet updates.'),
  CloneSetEventHandlerOptimization: openkruise(
    ALPHA_OFF,
    [CS],
    'Skip pod update events irrelevant to CloneSet (kruise#2473 regression in OpenKruise).',
  ),
  PreparingUpdateAsUpdate: implemented(
    openkruise(ALPHA_OFF, [CS, ASTS], 'Treat PreparingUpdate pods as updated when scaling.'),
  ),
  ImagePullJobGate: openkruise(
    ALPHA_OFF,
    [CS, ASTS],
    'Run the ImagePullJob controllers (forced on by either pre-download gate).',
  ),
  ResourceDistributionGate: openkruise(BETA_OFF, [], 'The ResourceDistribution controller.'),
  DeletionProtectionForCRDCascadingGate: openkruise(ALPHA_OFF, [], 'Cascading deletion protection for CRDs.'),
  EnhancedLivenessProbe: openkruise(ALPHA_OFF, [], 'The enhanced liveness probe solution.'),
  RecreatePodWhenChangeVCTInCloneSetGate: implemented(
    openkruise(ALPHA_OFF, [CS], 'A volumeClaimTemplates change recreates pods instead of updating them in place.'),
  ),
  StatefulSetStartOrdinal: implemented(openkruise(ALPHA_OFF, [ASTS], 'Custom start ordinal for StatefulSets.')),
  PodIndexLabel: implemented(openkruise(BETA_ON, [ASTS], 'Pod index label on StatefulSet pods.')),
  EnableExternalCerts: openkruise(ALPHA_OFF, [CS, ASTS, SS, BJ], 'Use externally generated webhook certificates.'),
  StatefulSetAutoResizePVCGate: implemented(
    openkruise(ALPHA_OFF, [ASTS], 'Expand PVCs automatically when volumeClaimTemplates grow.'),
  ),
  ForceDeleteTimeoutExpectationGate: {
    ...openkruise(
      ALPHA_OFF,
      [CS],
      'Drop timed-out scale expectations (kruise#1765). kruise-ts always drops them, whatever this gate says.',
    ),
    alwaysOn: true,
  },
  InPlaceWorkloadVerticalScaling: implemented(
    openkruise(ALPHA_OFF, [CS, ASTS], 'In-place CPU/memory changes of CloneSet and Advanced StatefulSet pods.'),
  ),
  EnablePodProbeMarkerOnServerless: openkruise(ALPHA_OFF, [], 'PodProbeMarker on serverless pods.'),
  EnableSortSidecarContainerByName: openkruise(ALPHA_OFF, [SS], 'Sort injected sidecar containers by name.'),
  InPlacePodVerticalScaling: openkruise(
    ALPHA_OFF,
    [CS, ASTS],
    'Assume in-place pod resize works in the cluster; PUB protects resizes.',
  ),
  DefaultHostNetworkHostPortsInPodTemplates: openkruise(
    ALPHA_OFF,
    [CS, ASTS, BJ],
    'Default hostPort to containerPort in hostNetwork pod templates.',
  ),
  DaemonSetPruneIneligibleNodes: openkruise(
    ALPHA_OFF,
    [],
    'Advanced DaemonSet ignores pods on no-longer-eligible nodes for maxUnavailable.',
  ),
} satisfies Record<string, FeatureGateSpec>;

/** A kruise-ts app gate: Beta when on by default, Alpha while the app is still being built; implemented once the app exists. */
function app(
  name: FeatureGateApp,
  state: { readonly enabled: boolean; readonly exists: boolean },
  description: string,
): FeatureGateSpec {
  return {
    default: state.enabled,
    stage: state.enabled ? 'Beta' : 'Alpha',
    origin: 'kruise-ts',
    implemented: state.exists,
    apps: [name],
    description,
  };
}

/**
 * One gate per kruise-ts app, deciding whether the manager runs its controller. CloneSet and Advanced
 * StatefulSet are on by default; the other apps stay off by default until they exist, so that
 * enabling them is a deliberate opt-in while they are being built.
 */
const APP_GATES = {
  CloneSet: app(CS, { enabled: true, exists: true }, 'Run the CloneSet controller.'),
  AdvancedStatefulSet: app(ASTS, { enabled: true, exists: true }, 'Run the Advanced StatefulSet controller.'),
  SidecarSet: app(
    SS,
    { enabled: false, exists: true },
    'Run the SidecarSet app: the pod injection webhook and the controller (off by default: a pod webhook is something a cluster opts into).',
  ),
  BroadcastJob: app(
    BJ,
    { enabled: false, exists: true },
    'Run the BroadcastJob controller (off by default: a kruise-ts gate, OpenKruise has none and always runs it; the chart deploys it with BroadcastJob=true, docs/benchmarks.md measures it).',
  ),
} satisfies Record<string, FeatureGateSpec>;

/** Every known gate with its spec. */
export const KNOWN_FEATURE_GATES = { ...OPENKRUISE_GATES, ...APP_GATES } as const;

/** The name of a known feature gate (case-sensitive, as on the command line). */
export type FeatureGateName = keyof typeof KNOWN_FEATURE_GATES;

/** All known gate names, sorted. */
export const FEATURE_GATE_NAMES: readonly FeatureGateName[] = (
  Object.keys(KNOWN_FEATURE_GATES) as FeatureGateName[]
).sort();

/** Narrows a string to a known gate name (own keys only, so `toString` or `__proto__` are not gates). */
export function isFeatureGateName(name: string): name is FeatureGateName {
  return Object.hasOwn(KNOWN_FEATURE_GATES, name);
}
