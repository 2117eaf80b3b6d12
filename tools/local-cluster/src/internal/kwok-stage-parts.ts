/**
 * Pieces shared by the stage files (`kwok-stages.ts`, `kwok-job-stages.ts`): the stage shape we render
 * and template fragments that must say the same thing wherever a stage writes them.
 */

export interface StageDefinition {
  readonly name: string;
  readonly kind: 'Pod' | 'Node' | 'PersistentVolumeClaim' | 'PersistentVolume';
  /** jq expressions that must each evaluate to `true`; cheapest and most selective first (kwok stops at the first false). */
  readonly selectors: readonly string[];
  /** The delay, or with `delayFrom` its fallback when the expression yields nothing. */
  readonly delayMs: number;
  /** A jq expression yielding a Go duration string ("1500ms"); negative means at once. */
  readonly delayFrom?: string;
  /** A status patch template (strategic merge on the status subresource), an object to apply, or deletion. */
  readonly action: { readonly statusTemplate: string } | { readonly applyTemplate: string } | { readonly delete: true };
}

export const NOT_DELETING = '.metadata.deletionTimestamp == null';

/** Computes `$gatesReady` (all readiness gates True) into the template scope; `$pod` must be set. */
export const GATES_READY = String.raw`{{- $gatesReady := true }}
{{- range $gate := $pod.spec.readinessGates }}
{{- $found := false }}
{{- range $cond := $pod.status.conditions }}
{{- if and (eq $cond.type $gate.conditionType) (eq $cond.status "True") }}{{ $found = true }}{{ end }}
{{- end }}
{{- if not $found }}{{ $gatesReady = false }}{{ end }}
{{- end }}`;

/** The Ready condition from `$ready`, `$reason`, `$message` and `$now`. */
export const READY_CONDITION = String.raw`- type: Ready
  lastTransitionTime: {{ $now | Quote }}
  {{- if $ready }}
  status: "True"
  reason: null
  message: null
  {{- else }}
  status: "False"
  reason: {{ $reason | Quote }}
  message: {{ $message | Quote }}
  {{- end }}`;

/** A container status's `resources` and `allocatedResources`, from the spec container `$c`. */
export const CONTAINER_RESOURCES = String.raw`  {{- with $c.resources }}
  resources: {{ toJson . }}
  {{- with .requests }}
  allocatedResources: {{ toJson . }}
  {{- end }}
  {{- end }}`;

/** Sets `$old` to the status of container `$c` in `$pod`'s LIST (an empty dict when it has none). */
export function previousStatus(list: 'containerStatuses' | 'initContainerStatuses'): string {
  return String.raw`{{- $old := dict }}
{{- range $s := $pod.status.${list} }}{{ if eq $s.name $c.name }}{{ $old = $s }}{{ end }}{{ end }}`;
}
