/**
 * kwok Stage documents that make fake nodes behave like a kubelet in the ways our workloads observe.
 * Written for kruise-ts (kwok's stock stages set every readiness gate True, never restart a
 * container and ignore resizes, which would hide exactly the behaviour CloneSet depends on).
 *
 * Behaviour, one stage each:
 * - pod-start: a scheduled Pending pod becomes Running; containers are running and ready with an
 *   `imageID` derived from the image; `Ready` is True only when every readiness gate's condition is
 *   True (a missing gate condition counts as not ready, as in the kubelet).
 * - pod-ready: whenever the readiness-gate conditions or ContainersReady change, `Ready` is recomputed
 *   (False when a gate turns False, True again when it turns True).
 * - pod-containers: a container whose spec image differs from its status image restarts:
 *   restartCount + 1, new containerID and imageID, lastState terminated. A resize (through
 *   `pods/resize`) is copied into `containerStatuses[].resources` and `allocatedResources`; it also
 *   restarts the container when the container's resizePolicy says RestartContainer for that resource.
 * - pod-exit / pod-restart: the containers of a job pod (restartPolicy Never or OnFailure) exit after
 *   their run time, and an OnFailure pod's failed containers restart after a backoff; what a pod asks
 *   for is in its annotations (`kwok-job-stages.ts`). Pods with restartPolicy Always never exit.
 * - pod-delete: a pod with a deletionTimestamp is deleted with grace period 0 (its finalizers, if any,
 *   still hold it, as with a real kubelet).
 * - node-initialize: a fake node becomes Ready with kubelet-like conditions and node info.
 * - pvc-provision / pv-reclaim: an external provisioner for the default StorageClass: a PersistentVolume
 *   for each claim the binder hands to it, deleted again once released (reclaim policy Delete).
 *
 * Restarts are instantaneous: containers have no readiness probe, so a restarted container is ready at
 * once. A readiness drop during an in-place update comes from the workload's readiness gate.
 */
import { jobPodStages } from './kwok-job-stages.ts';
import { CONTAINER_RESOURCES, GATES_READY, NOT_DELETING, READY_CONDITION } from './kwok-stage-parts.ts';
import type { StageDefinition } from './kwok-stage-parts.ts';

export interface KubeletSimulationOptions {
  /** Delay before a scheduled pod starts (ms). Zero by default so that benchmarks measure control-plane work. */
  readonly podStartDelayMs?: number;
  /** Delay before a changed container restarts or a resize is applied (ms). */
  readonly containerUpdateDelayMs?: number;
  /** Delay before a terminating pod is removed (ms). */
  readonly podDeleteDelayMs?: number;
  /** Pod stage plays kwok runs at once (its podPlayStageParallelism; kwok's default 4 when absent). */
  readonly podParallelism?: number;
  /** Reported as the node's kubelet version. */
  readonly kubeletVersion: string;
  /** The provisioner name of the default StorageClass whose claims the fake provisioner serves. */
  readonly provisioner?: string;
}

const POD_START_SELECTORS = [NOT_DELETING, '.status.phase == "Pending"', '.spec.nodeName != null'];

const POD_READY_SELECTORS = [
  NOT_DELETING,
  '.status.phase == "Running"',
  [
    '. as $p',
    '| ([($p.spec.readinessGates // [])[] | .conditionType as $g | any($p.status.conditions[]?; .type == $g and .status == "True")] | all) as $gates',
    '| any($p.status.conditions[]?; .type == "ContainersReady" and .status == "True") as $containers',
    '| any($p.status.conditions[]?; .type == "Ready" and .status == "True") as $ready',
    '| ($gates and $containers) != $ready',
  ].join(' '),
];

const POD_CONTAINERS_SELECTORS = [
  NOT_DELETING,
  '.status.phase == "Running"',
  // A job pod's exited containers take the new spec when pod-restart starts them again.
  'all(.status.containerStatuses[]?; .state.running != null)',
  [
    '. as $p',
    '| any($p.spec.containers[]; . as $c | any($p.status.containerStatuses[]?;',
    '.name == $c.name and (.image != $c.image or (.resources // {}) != ($c.resources // {}))))',
  ].join(' '),
];

const POD_START_TEMPLATE = String.raw`{{- $now := Now }}
{{- $pod := . }}
${GATES_READY}
{{- $ready := $gatesReady }}
{{- $reason := "ReadinessGatesNotReady" }}
{{- $message := "the status of pod readiness gate is not True" }}
conditions:
- type: PodReadyToStartContainers
  status: "True"
  lastTransitionTime: {{ $now | Quote }}
- type: Initialized
  status: "True"
  lastTransitionTime: {{ $now | Quote }}
- type: ContainersReady
  status: "True"
  lastTransitionTime: {{ $now | Quote }}
${READY_CONDITION}
containerStatuses:
{{- range $c := .spec.containers }}
- name: {{ $c.name | Quote }}
  image: {{ $c.image | Quote }}
  imageID: {{ printf "sim.kruise-ts.io/image@sha256:%s" (sha256sum $c.image) | Quote }}
  containerID: {{ printf "sim://%s" (sha256sum (printf "%s/%s/0" $pod.metadata.uid $c.name)) | Quote }}
  ready: true
  started: true
  restartCount: 0
  state:
    running:
      startedAt: {{ $now | Quote }}
${CONTAINER_RESOURCES}
{{- end }}
{{- with .spec.initContainers }}
initContainerStatuses:
{{- range $c := . }}
- name: {{ $c.name | Quote }}
  image: {{ $c.image | Quote }}
  imageID: {{ printf "sim.kruise-ts.io/image@sha256:%s" (sha256sum $c.image) | Quote }}
  restartCount: 0
  {{- if and $c.restartPolicy (eq $c.restartPolicy "Always") }}
  ready: true
  started: true
  state:
    running:
      startedAt: {{ $now | Quote }}
  {{- else }}
  ready: true
  started: false
  state:
    terminated:
      exitCode: 0
      reason: Completed
      startedAt: {{ $now | Quote }}
      finishedAt: {{ $now | Quote }}
  {{- end }}
{{- end }}
{{- end }}
{{- with NodeIPsWith .spec.nodeName }}
hostIP: {{ index . 0 | Quote }}
hostIPs:
{{- range . }}
- ip: {{ . | Quote }}
{{- end }}
{{- end }}
{{- with PodIPsWith .spec.nodeName (or .spec.hostNetwork false) (or .metadata.uid "") (or .metadata.name "") (or .metadata.namespace "") }}
podIP: {{ index . 0 | Quote }}
podIPs:
{{- range . }}
- ip: {{ . | Quote }}
{{- end }}
{{- end }}
{{- with .metadata.generation }}
observedGeneration: {{ . }}
{{- end }}
phase: Running
startTime: {{ $now | Quote }}`;

const POD_READY_TEMPLATE = String.raw`{{- $now := Now }}
{{- $pod := . }}
${GATES_READY}
{{- $containersReady := false }}
{{- range $cond := .status.conditions }}
{{- if and (eq $cond.type "ContainersReady") (eq $cond.status "True") }}{{ $containersReady = true }}{{ end }}
{{- end }}
{{- $ready := and $gatesReady $containersReady }}
{{- $reason := "ReadinessGatesNotReady" }}
{{- $message := "the status of pod readiness gate is not True" }}
{{- if not $containersReady }}
{{- $reason = "ContainersNotReady" }}
{{- $message = "containers with unready status" }}
{{- end }}
conditions:
${READY_CONDITION}`;

/**
 * Per container: `$old` is its current status. An image change restarts it; so does a change of a
 * resource whose resizePolicy is RestartContainer. Resources are always copied from the spec.
 */
const POD_CONTAINERS_TEMPLATE = String.raw`{{- $now := Now }}
{{- $pod := . }}
containerStatuses:
{{- range $c := .spec.containers }}
{{- $old := dict }}
{{- range $s := $pod.status.containerStatuses }}{{ if eq $s.name $c.name }}{{ $old = $s }}{{ end }}{{ end }}
{{- $restart := ne (toString (dig "image" "" $old)) $c.image }}
{{- range $policy := $c.resizePolicy }}
{{- if eq $policy.restartPolicy "RestartContainer" }}
{{- $r := $policy.resourceName }}
{{- if ne (toString (dig "resources" "requests" $r "" $old)) (toString (dig "resources" "requests" $r "" $c)) }}{{ $restart = true }}{{ end }}
{{- if ne (toString (dig "resources" "limits" $r "" $old)) (toString (dig "resources" "limits" $r "" $c)) }}{{ $restart = true }}{{ end }}
{{- end }}
{{- end }}
{{- $count := int64 (dig "restartCount" 0 $old) }}
- name: {{ $c.name | Quote }}
  image: {{ $c.image | Quote }}
  imageID: {{ printf "sim.kruise-ts.io/image@sha256:%s" (sha256sum $c.image) | Quote }}
  ready: true
  started: true
  {{- if $restart }}
  restartCount: {{ add1 $count }}
  containerID: {{ printf "sim://%s" (sha256sum (printf "%s/%s/%d" $pod.metadata.uid $c.name (add1 $count))) | Quote }}
  state:
    running:
      startedAt: {{ $now | Quote }}
  lastState:
    terminated:
      exitCode: 0
      reason: Completed
      containerID: {{ dig "containerID" "" $old | Quote }}
      startedAt: {{ dig "state" "running" "startedAt" $now $old | Quote }}
      finishedAt: {{ $now | Quote }}
  {{- else }}
  restartCount: {{ $count }}
  containerID: {{ dig "containerID" "" $old | Quote }}
  state: {{ toJson (dig "state" dict $old) }}
  lastState: {{ toJson (dig "lastState" dict $old) }}
  {{- end }}
${CONTAINER_RESOURCES}
{{- end }}
conditions:
- type: PodResizePending
  $patch: delete
- type: PodResizeInProgress
  $patch: delete
{{- with .metadata.generation }}
observedGeneration: {{ . }}
{{- end }}`;

const NODE_INITIALIZE_TEMPLATE = String.raw`{{- $now := Now }}
conditions:
- type: Ready
  status: "True"
  reason: KubeletReady
  message: kubelet is posting ready status (simulated by kwok)
  lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ $now | Quote }}
- type: MemoryPressure
  status: "False"
  reason: KubeletHasSufficientMemory
  message: kubelet has sufficient memory available
  lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ $now | Quote }}
- type: DiskPressure
  status: "False"
  reason: KubeletHasNoDiskPressure
  message: kubelet has no disk pressure
  lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ $now | Quote }}
- type: PIDPressure
  status: "False"
  reason: KubeletHasSufficientPID
  message: kubelet has sufficient PID available
  lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ $now | Quote }}
nodeInfo:
  architecture: amd64
  operatingSystem: linux
  osImage: kwok
  kernelVersion: kwok
  containerRuntimeVersion: kwok
  kubeletVersion: KUBELET_VERSION
  machineID: {{ .metadata.name | Quote }}
  systemUUID: {{ .metadata.uid | Quote }}
  bootID: {{ .metadata.uid | Quote }}
phase: Running`;

function podStages(options: KubeletSimulationOptions): StageDefinition[] {
  return [
    {
      name: 'kruise-ts-pod-start',
      kind: 'Pod',
      selectors: POD_START_SELECTORS,
      delayMs: options.podStartDelayMs ?? 0,
      action: { statusTemplate: POD_START_TEMPLATE },
    },
    {
      name: 'kruise-ts-pod-ready',
      kind: 'Pod',
      selectors: POD_READY_SELECTORS,
      delayMs: 0,
      action: { statusTemplate: POD_READY_TEMPLATE },
    },
    {
      name: 'kruise-ts-pod-containers',
      kind: 'Pod',
      selectors: POD_CONTAINERS_SELECTORS,
      delayMs: options.containerUpdateDelayMs ?? 0,
      action: { statusTemplate: POD_CONTAINERS_TEMPLATE },
    },
    ...jobPodStages(),
    {
      name: 'kruise-ts-pod-delete',
      kind: 'Pod',
      selectors: ['.metadata.deletionTimestamp != null'],
      delayMs: options.podDeleteDelayMs ?? 0,
      action: { delete: true },
    },
  ];
}

function nodeStages(options: KubeletSimulationOptions): StageDefinition[] {
  return [
    {
      name: 'kruise-ts-node-initialize',
      kind: 'Node',
      selectors: ['any(.status.conditions[]?; .type == "Ready" and .status == "True") | not'],
      delayMs: 0,
      action: { statusTemplate: NODE_INITIALIZE_TEMPLATE.replace('KUBELET_VERSION', options.kubeletVersion) },
    },
  ];
}

/** A PersistentVolume for a claim, as an external provisioner creates it; the binder then binds the two. */
const PV_FOR_CLAIM_TEMPLATE = String.raw`apiVersion: v1
kind: PersistentVolume
metadata:
  name: {{ printf "pvc-%s" .metadata.uid | Quote }}
  annotations:
    pv.kubernetes.io/provisioned-by: PROVISIONER
spec:
  accessModes: {{ toJson .spec.accessModes }}
  capacity:
    storage: {{ .spec.resources.requests.storage | Quote }}
  persistentVolumeReclaimPolicy: Delete
  storageClassName: {{ .spec.storageClassName | Quote }}
  volumeMode: {{ default "Filesystem" .spec.volumeMode | Quote }}
  claimRef:
    apiVersion: v1
    kind: PersistentVolumeClaim
    name: {{ .metadata.name | Quote }}
    namespace: {{ .metadata.namespace | Quote }}
    uid: {{ .metadata.uid | Quote }}
  hostPath:
    path: {{ printf "/tmp/kruise-ts-fake-pv/pvc-%s" .metadata.uid | Quote }}`;

function volumeStages(provisioner: string): StageDefinition[] {
  return [
    {
      name: 'kruise-ts-pvc-provision',
      kind: 'PersistentVolumeClaim',
      selectors: [
        NOT_DELETING,
        '.spec.volumeName == null',
        '.status.phase == "Pending"',
        `.metadata.annotations["volume.kubernetes.io/storage-provisioner"] == ${JSON.stringify(provisioner)}`,
      ],
      delayMs: 0,
      action: { applyTemplate: PV_FOR_CLAIM_TEMPLATE.replace('PROVISIONER', JSON.stringify(provisioner)) },
    },
    {
      name: 'kruise-ts-pv-reclaim',
      kind: 'PersistentVolume',
      selectors: [
        NOT_DELETING,
        '.status.phase == "Released"',
        '.spec.persistentVolumeReclaimPolicy == "Delete"',
        `.metadata.annotations["pv.kubernetes.io/provisioned-by"] == ${JSON.stringify(provisioner)}`,
      ],
      delayMs: 0,
      action: { delete: true },
    },
  ];
}

/** Renders kwok's configuration and all stages as one multi-document YAML file for `kwok --config`. */
export function renderKwokStages(options: KubeletSimulationOptions): string {
  const configuration = options.podParallelism === undefined ? [] : [renderKwokConfiguration(options.podParallelism)];
  return [
    ...configuration,
    ...[...nodeStages(options), ...podStages(options), ...volumeStages(options.provisioner ?? DEFAULT_PROVISIONER)].map(
      renderStage,
    ),
  ].join('---\n');
}

/**
 * kwok's own configuration. kwok v0.8 does not default the options of a KwokConfiguration read from
 * `--config` (a missing nodeLeaseParallelism stops it), so every option with a default is spelled out
 * with kwok's default value, except the pod parallelism.
 */
function renderKwokConfiguration(podParallelism: number): string {
  return [
    'apiVersion: config.kwok.x-k8s.io/v1alpha1',
    'kind: KwokConfiguration',
    'options:',
    '  cidr: 10.0.0.0/24',
    '  manageAllNodes: false',
    '  enableDebuggingHandlers: true',
    '  enableContentionProfiling: false',
    '  enableProfilingHandler: true',
    `  podPlayStageParallelism: ${String(podParallelism)}`,
    '  nodePlayStageParallelism: 4',
    '  nodeLeaseParallelism: 4',
    '  podsOnNodeSyncParallelism: 1',
    '  enablePodsOnNodeSyncListPager: true',
    '  enablePodsOnNodeSyncStreamWatch: false',
    '',
  ].join('\n');
}

const DEFAULT_PROVISIONER = 'kruise-ts.io/fake-provisioner';

function renderDelay(stage: StageDefinition): string[] {
  if (stage.delayMs <= 0 && stage.delayFrom === undefined) {
    return [];
  }
  const fixed = stage.delayMs > 0 ? [`    durationMilliseconds: ${String(stage.delayMs)}`] : [];
  const computed =
    stage.delayFrom === undefined
      ? []
      : ['    durationFrom:', '      jq:', `        expression: ${JSON.stringify(stage.delayFrom)}`];
  return ['  delay:', ...fixed, ...computed];
}

function renderStage(stage: StageDefinition): string {
  const lines = [
    'apiVersion: kwok.x-k8s.io/v1alpha1',
    'kind: Stage',
    'metadata:',
    `  name: ${stage.name}`,
    'spec:',
    '  resourceRef:',
    '    apiGroup: v1',
    `    kind: ${stage.kind}`,
    '  selector:',
    '    matchExpressions:',
    ...stage.selectors.flatMap((expression) => [
      `    - key: ${JSON.stringify(expression)}`,
      '      operator: In',
      "      values: ['true']",
    ]),
  ];
  lines.push(...renderDelay(stage));
  lines.push('  steps:');
  if ('delete' in stage.action) {
    lines.push('  - delete: true');
  } else if ('applyTemplate' in stage.action) {
    lines.push(
      '  - apply:',
      '      template: |',
      ...stage.action.applyTemplate.split('\n').map((line) => `        ${line}`),
    );
  } else {
    lines.push(
      '  - patch:',
      '      subresource: status',
      '      root: status',
      '      type: strategic',
      '      template: |',
      ...stage.action.statusTemplate.split('\n').map((line) => (line === '' ? '' : `        ${line}`)),
    );
  }
  return `${lines.join('\n')}\n`;
}
