{{/*
Feature gates: `featureGates` parsed as the runtime parses `--feature-gates`
(packages/controller-runtime/src/feature-gates/parse-feature-gates.ts and gate-dependencies.ts), with
the defaults and dependency rules of files/feature-gates.yaml:

- items are separated by commas; spaces around items, names and values are ignored; empty items are
  skipped; a repeated gate takes its last value;
- every item is Name=Value with a known, case-sensitive Name and Value exactly true or false;
- then OpenKruise's dependency rules force some gates, and an explicit setting that a rule overrides
  is an error (OpenKruise overrides silently; kruise-ts refuses).

Every problem fails the render with a message naming the gate, so a bad string never reaches the pods.
*/}}

{{/* All gates with their values, as JSON: `include "kruise-ts.featureGates" . | fromJson`. */}}
{{- define "kruise-ts.featureGates" -}}
{{- $table := .Files.Get "files/feature-gates.yaml" | fromYaml -}}
{{- $values := deepCopy $table.defaults -}}
{{- $explicit := dict -}}
{{- range $raw := splitList "," .Values.featureGates -}}
{{- $item := trim $raw -}}
{{- if $item -}}
{{- if not (contains "=" $item) -}}
{{- fail (printf "featureGates: missing \"=\" in %q: want Name=true or Name=false" $item) -}}
{{- end -}}
{{- $parts := splitn "=" 2 $item -}}
{{- $name := trim $parts._0 -}}
{{- $value := trim $parts._1 -}}
{{- if not (hasKey $table.defaults $name) -}}
{{- fail (printf "featureGates: unknown feature gate %q (names are case-sensitive); known gates: %s" $name (keys $table.defaults | sortAlpha | join ", ")) -}}
{{- end -}}
{{- if not (has $value (list "true" "false")) -}}
{{- fail (printf "featureGates: invalid value %q for feature gate %q: want true or false" $value $name) -}}
{{- end -}}
{{- $_ := set $values $name (eq $value "true") -}}
{{- $_ := set $explicit $name (eq $value "true") -}}
{{- end -}}
{{- end -}}
{{- $forcedBy := dict -}}
{{- range $rule := $table.dependencies -}}
{{- if eq (get $values $rule.when.gate) $rule.when.enabled -}}
{{- range $gate := $rule.force.gates -}}
{{- $_ := set $values $gate $rule.force.enabled -}}
{{- $_ := set $forcedBy $gate $rule -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- range $gate := keys $forcedBy | sortAlpha -}}
{{- $rule := get $forcedBy $gate -}}
{{- if and (hasKey $explicit $gate) (ne (get $explicit $gate) (get $values $gate)) -}}
{{- fail (printf "featureGates: feature gate %q is set to %t, but \"%s=%t\" forces it to %t" $gate (get $explicit $gate) $rule.when.gate $rule.when.enabled $rule.force.enabled) -}}
{{- end -}}
{{- end -}}
{{- toJson $values -}}
{{- end -}}

{{/*
The apps to deploy, as JSON: a list of the entries of files/apps.yaml whose gate is on, each with its
`gate`, in the order of their names. Enabling the gate of an app that does not exist yet fails.
*/}}
{{- define "kruise-ts.enabledApps" -}}
{{- $gates := include "kruise-ts.featureGates" . | fromJson -}}
{{- $apps := .Files.Get "files/apps.yaml" | fromYaml -}}
{{- $enabled := list -}}
{{- range $gate := keys $apps | sortAlpha -}}
{{- $app := get $apps $gate -}}
{{- if get $gates $gate -}}
{{- if not $app.available -}}
{{- fail (printf "featureGates: %s=true enables the %s app, which kruise-ts %s does not have yet; remove it or set it to false" $gate $app.title $.Chart.AppVersion) -}}
{{- end -}}
{{- $enabled = append $enabled (merge (dict "gate" $gate) $app) -}}
{{- end -}}
{{- end -}}
{{- toJson (dict "apps" $enabled) -}}
{{- end -}}
