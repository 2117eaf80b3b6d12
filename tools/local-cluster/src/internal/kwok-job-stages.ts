/**
 * kwok Stages that run the containers of job pods (`spec.restartPolicy` Never or OnFailure) to
 * completion, as a kubelet would once the program in the container exits. Pods with restartPolicy
 * Always (every CloneSet and StatefulSet pod) match none of these stages: their selectors test the
 * restart policy first.
 *
 * What a pod asks for (annotations read by the simulator only; no controller reads them):
 * - `sim.kruise-ts.io/run-ms`: how long each attempt runs (never less; up to a second more when
 *   something else writes the pod during the run, see TIME_LEFT).
 * - `sim.kruise-ts.io/outcome`: `fail` makes every attempt fail; anything else succeeds.
 * - `sim.kruise-ts.io/failures`: the first N attempts fail (exit code 1), later ones succeed.
 * - `sim.kruise-ts.io/restart-backoff-ms`: the base of the CrashLoopBackOff between attempts.
 *
 * An attempt that succeeds ends the pod (Succeeded). One that fails ends a Never pod (Failed); an
 * OnFailure pod's containers wait (terminated, then CrashLoopBackOff) and restart with restartCount+1,
 * for ever if the outcome is `fail`. All containers of a pod run and end together; native sidecars
 * (init containers with restartPolicy Always) are stopped when the pod ends.
 */
import { CONTAINER_RESOURCES, GATES_READY, NOT_DELETING, READY_CONDITION, previousStatus } from './kwok-stage-parts.ts';
import type { StageDefinition } from './kwok-stage-parts.ts';

/** The annotations of a pod that steer its simulated run. */
export const SIMULATED_JOB_POD_ANNOTATIONS = {
  runMs: 'sim.kruise-ts.io/run-ms',
  outcome: 'sim.kruise-ts.io/outcome',
  failures: 'sim.kruise-ts.io/failures',
  restartBackoffMs: 'sim.kruise-ts.io/restart-backoff-ms',
} as const;

/**
 * One second: long enough that a job pod is seen Running (and counted active) like a short real job,
 * short enough for tests. A test that wants another time says so on its pods: the run time belongs to
 * the workload, not to the cluster, so a test's outcome never depends on how the cluster was started.
 */
export const DEFAULT_JOB_RUN_MS = 1000;

/** The kubelet's backoff (10 s doubling to 300 s) scaled down tenfold, so that tests of restarts stay short. */
export const DEFAULT_RESTART_BACKOFF_MS = 1000;

/** A floor under the backoff base, so that a pod failing for ever cannot patch its status in a tight loop. */
const MIN_RESTART_BACKOFF_MS = 100;

/** The kubelet caps its backoff at 30 times its base (300 s for 10 s). */
const MAX_BACKOFF_FACTOR = 30;

/** How a simulated job pod should run; every field has the simulator's default when absent. */
export interface SimulatedJobRun {
  /** Milliseconds each attempt runs (default {@link DEFAULT_JOB_RUN_MS}). */
  readonly runMs?: number;
  /** `fail`: every attempt fails (default `succeed`). */
  readonly outcome?: 'succeed' | 'fail';
  /** The first N attempts fail, later ones succeed (default 0). Only OnFailure pods make more than one attempt. */
  readonly failures?: number;
  /** The base of the backoff before the second and later restarts (default {@link DEFAULT_RESTART_BACKOFF_MS}, at least 100). */
  readonly restartBackoffMs?: number;
}

/** The annotations that ask the simulated kubelet for `run`; put them on a pod or a pod template. */
export function simulatedJobRunAnnotations(run: SimulatedJobRun): Record<string, string> {
  const annotations: Record<string, string> = {};
  if (run.runMs !== undefined) {
    annotations[SIMULATED_JOB_POD_ANNOTATIONS.runMs] = String(run.runMs);
  }
  if (run.outcome !== undefined) {
    annotations[SIMULATED_JOB_POD_ANNOTATIONS.outcome] = run.outcome;
  }
  if (run.failures !== undefined) {
    annotations[SIMULATED_JOB_POD_ANNOTATIONS.failures] = String(run.failures);
  }
  if (run.restartBackoffMs !== undefined) {
    annotations[SIMULATED_JOB_POD_ANNOTATIONS.restartBackoffMs] = String(run.restartBackoffMs);
  }
  return annotations;
}

const ANNOTATION = (key: string): string => `(.metadata.annotations // {})[${JSON.stringify(key)}]`;

/** An annotation as a number, or `fallback` when it is absent or not a number. */
const NUMBER_ANNOTATION = (key: string, fallback: number): string =>
  `(${ANNOTATION(key)} | tonumber? // ${String(fallback)})`;

/**
 * kwok's delay for something that should happen `durationMs` after `since` (an RFC 3339 time of the
 * status, which the API server keeps to the second), as a Go duration. The true instant lies within
 * the second after the recorded one, and kwok computes the delay anew whenever the pod changes: the
 * first time it sees the pod (just after `since`) the delay is `durationMs`, and later it never
 * reaches past the end of that second plus `durationMs`. So it never fires early, and at most a second
 * late when something else writes the pod meanwhile. Negative (overdue) means at once.
 */
const TIME_LEFT = (since: string, durationMs: string): string =>
  `"\\(([${durationMs}, (${since} | fromdate) * 1000 + 1000 + ${durationMs} - now * 1000] | min | floor))ms"`;

const JOB_POLICY = '.spec.restartPolicy == "Never" or .spec.restartPolicy == "OnFailure"';

const POD_EXIT_SELECTORS = [
  JOB_POLICY,
  NOT_DELETING,
  '.status.phase == "Running"',
  '(.status.containerStatuses // []) | length > 0 and all(.[]; .state.running != null)',
];

/** The attempt ends `run-ms` after the last container started. */
const POD_EXIT_DELAY = [
  `([${NUMBER_ANNOTATION(SIMULATED_JOB_POD_ANNOTATIONS.runMs, DEFAULT_JOB_RUN_MS)}, 0] | max) as $run`,
  '| ([.status.containerStatuses[].state.running.startedAt] | max) as $started',
  `| ${TIME_LEFT('$started', '$run')}`,
].join(' ');

const POD_RESTART_SELECTORS = [
  '.spec.restartPolicy == "OnFailure"',
  NOT_DELETING,
  '.status.phase == "Running"',
  'any(.status.containerStatuses[]?; .state.running == null)',
];

/**
 * The first restart is immediate, the n-th waits base × 2^(n−2), at most 30 × base, from the moment
 * the containers exited: the kubelet's CrashLoopBackOff, scaled.
 */
const POD_RESTART_DELAY = [
  `([${NUMBER_ANNOTATION(SIMULATED_JOB_POD_ANNOTATIONS.restartBackoffMs, DEFAULT_RESTART_BACKOFF_MS)}, ${String(MIN_RESTART_BACKOFF_MS)}] | max) as $base`,
  '| ([.status.containerStatuses[].restartCount] | max) as $restarts',
  '| ([.status.containerStatuses[] | select(.state.running == null) | (.state.terminated // .lastState.terminated).finishedAt] | max) as $exited',
  `| (if $restarts == 0 then 0 else ([$base * pow(2; $restarts - 1), $base * ${String(MAX_BACKOFF_FACTOR)}] | min) end) as $backoff`,
  `| ${TIME_LEFT('$exited', '$backoff')}`,
].join(' ');

/**
 * Whether this attempt fails (`$failed`), and what that does: `$phase` Succeeded, Failed, or Running
 * for an OnFailure pod whose containers will restart (`$restarts`). The attempt's number is the
 * containers' restartCount.
 */
const ATTEMPT_OUTCOME = String.raw`{{- $annotations := .metadata.annotations | default dict }}
{{- $attempt := int64 0 }}
{{- range $s := .status.containerStatuses }}{{ $attempt = max $attempt $s.restartCount }}{{ end }}
{{- $failures := int64 (atoi (toString (dig "${SIMULATED_JOB_POD_ANNOTATIONS.failures}" "0" $annotations))) }}
{{- $failed := or (eq (toString (dig "${SIMULATED_JOB_POD_ANNOTATIONS.outcome}" "" $annotations)) "fail") (lt $attempt $failures) }}
{{- $restarts := and $failed (eq .spec.restartPolicy "OnFailure") }}
{{- $phase := "Succeeded" }}
{{- $exitCode := 0 }}
{{- $exitReason := "Completed" }}
{{- if $failed }}{{ $phase = "Failed" }}{{ $exitCode = 1 }}{{ $exitReason = "Error" }}{{ end }}
{{- if $restarts }}{{ $phase = "Running" }}{{ end }}`;

/**
 * A crashed OnFailure pod keeps running (phase Running, not ready); the kubelet shows the first exit
 * as terminated and later ones as CrashLoopBackOff with the exit in lastState. An ended pod's
 * containers are terminated, its native sidecars stopped, and Ready/ContainersReady say why
 * (PodCompleted or PodFailed), as the kubelet's terminal-phase conditions do.
 */
const POD_EXIT_TEMPLATE = String.raw`{{- $now := Now }}
{{- $pod := . }}
${ATTEMPT_OUTCOME}
containerStatuses:
{{- range $c := .spec.containers }}
${previousStatus('containerStatuses')}
{{- $count := int64 (dig "restartCount" 0 $old) }}
{{- $terminated := dict "exitCode" $exitCode "reason" $exitReason "containerID" (dig "containerID" "" $old) "startedAt" (dig "state" "running" "startedAt" $now $old) "finishedAt" $now }}
- name: {{ $c.name | Quote }}
  image: {{ $c.image | Quote }}
  imageID: {{ dig "imageID" "" $old | Quote }}
  containerID: {{ dig "containerID" "" $old | Quote }}
  ready: false
  started: false
  restartCount: {{ $count }}
  {{- if and $restarts (gt $count 0) }}
  state:
    waiting:
      reason: CrashLoopBackOff
      message: {{ printf "back-off restarting failed container=%s pod=%s_%s(%s)" $c.name $pod.metadata.name $pod.metadata.namespace $pod.metadata.uid | Quote }}
  lastState:
    terminated: {{ toJson $terminated }}
  {{- else }}
  state:
    terminated: {{ toJson $terminated }}
  lastState: {{ toJson (dig "lastState" dict $old) }}
  {{- end }}
${CONTAINER_RESOURCES}
{{- end }}
{{- if not $restarts }}
{{- with .spec.initContainers }}
initContainerStatuses:
{{- range $c := . }}
${previousStatus('initContainerStatuses')}
{{- if and $c.restartPolicy (eq $c.restartPolicy "Always") }}
- name: {{ $c.name | Quote }}
  image: {{ $c.image | Quote }}
  imageID: {{ dig "imageID" "" $old | Quote }}
  restartCount: {{ int64 (dig "restartCount" 0 $old) }}
  ready: false
  started: false
  state:
    terminated: {{ toJson (dict "exitCode" 0 "reason" "Completed" "startedAt" (dig "state" "running" "startedAt" $now $old) "finishedAt" $now) }}
{{- else if $old }}
- {{ toJson $old }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
conditions:
{{- if $restarts }}
{{- $names := list }}
{{- range .spec.containers }}{{ $names = append $names .name }}{{ end }}
{{- $message := printf "containers with unready status: [%s]" (join " " $names) }}
{{- range $type := list "ContainersReady" "Ready" }}
- type: {{ $type }}
  status: "False"
  reason: ContainersNotReady
  message: {{ $message | Quote }}
  lastTransitionTime: {{ $now | Quote }}
{{- end }}
{{- else }}
- type: PodReadyToStartContainers
  status: "False"
  lastTransitionTime: {{ $now | Quote }}
{{- range $type := list "ContainersReady" "Ready" }}
- type: {{ $type }}
  status: "False"
  reason: {{ if $failed }}PodFailed{{ else }}PodCompleted{{ end }}
  message: null
  lastTransitionTime: {{ $now | Quote }}
{{- end }}
{{- end }}
phase: {{ $phase }}`;

/** The exited containers start again: restartCount+1, a new containerID, the exit kept in lastState. */
const POD_RESTART_TEMPLATE = String.raw`{{- $now := Now }}
{{- $pod := . }}
${GATES_READY}
{{- $ready := $gatesReady }}
{{- $reason := "ReadinessGatesNotReady" }}
{{- $message := "the status of pod readiness gate is not True" }}
conditions:
- type: ContainersReady
  status: "True"
  reason: null
  message: null
  lastTransitionTime: {{ $now | Quote }}
${READY_CONDITION}
containerStatuses:
{{- range $c := .spec.containers }}
${previousStatus('containerStatuses')}
{{- if dig "state" "running" "" $old }}
- {{ toJson $old }}
{{- else }}
{{- $count := add1 (int64 (dig "restartCount" 0 $old)) }}
- name: {{ $c.name | Quote }}
  image: {{ $c.image | Quote }}
  imageID: {{ printf "sim.kruise-ts.io/image@sha256:%s" (sha256sum $c.image) | Quote }}
  containerID: {{ printf "sim://%s" (sha256sum (printf "%s/%s/%d" $pod.metadata.uid $c.name $count)) | Quote }}
  ready: true
  started: true
  restartCount: {{ $count }}
  state:
    running:
      startedAt: {{ $now | Quote }}
  lastState:
    terminated: {{ toJson (dig "state" "terminated" (dig "lastState" "terminated" dict $old) $old) }}
${CONTAINER_RESOURCES}
{{- end }}
{{- end }}`;

/** The stages of job pods: the end of an attempt, and the restart of an OnFailure pod's containers. */
export function jobPodStages(): StageDefinition[] {
  return [
    {
      name: 'kruise-ts-pod-exit',
      kind: 'Pod',
      selectors: POD_EXIT_SELECTORS,
      delayMs: DEFAULT_JOB_RUN_MS,
      delayFrom: POD_EXIT_DELAY,
      action: { statusTemplate: POD_EXIT_TEMPLATE },
    },
    {
      name: 'kruise-ts-pod-restart',
      kind: 'Pod',
      selectors: POD_RESTART_SELECTORS,
      delayMs: 0,
      delayFrom: POD_RESTART_DELAY,
      action: { statusTemplate: POD_RESTART_TEMPLATE },
    },
  ];
}
