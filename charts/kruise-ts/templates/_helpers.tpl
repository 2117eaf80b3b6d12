{{/*
Names, labels and the image.
*/}}

{{/* The release's base name: the release name when it contains the chart name, else "<release>-<chart>". */}}
{{- define "kruise-ts.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* The name of one app's objects (Deployment, ServiceAccount, RBAC, Lease): "<fullname>-<app>". Call with (dict "root" $ "app" $app). */}}
{{- define "kruise-ts.appFullname" -}}
{{- printf "%s-%s" (include "kruise-ts.fullname" .root) .app.name -}}
{{- end -}}

{{/* Labels that select one app's pods. Call with (dict "root" $ "app" $app). */}}
{{- define "kruise-ts.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .app.name }}
{{- end -}}

{{/* Labels of every object of the chart. */}}
{{- define "kruise-ts.commonLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: kruise-ts
{{- end -}}

{{/* Labels of one app's objects. Call with (dict "root" $ "app" $app). */}}
{{- define "kruise-ts.appLabels" -}}
{{ include "kruise-ts.commonLabels" .root }}
app.kubernetes.io/component: {{ .app.name }}
{{- end -}}

{{/* The image reference: repository@digest when a digest is given, else repository:tag (tag defaults to appVersion). */}}
{{- define "kruise-ts.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/*
Pods of one app: `apps.<app>.replicas` when the app has that key (the SidecarSet app, whose webhook
needs a second server while one restarts), else the global `replicas`. Call with (dict "root" $ "app" $app).
*/}}
{{- define "kruise-ts.appReplicas" -}}
{{- $appValues := get .root.Values.apps .app.name | default dict -}}
{{- if gt (int (include "kruise-ts.appShards" .)) 0 -}}
{{- int (include "kruise-ts.appShards" .) -}}
{{- else if hasKey $appValues "replicas" -}}
{{- int $appValues.replicas -}}
{{- else -}}
{{- int .root.Values.replicas -}}
{{- end -}}
{{- end -}}

{{/*
The replicas of one app that share its workloads (`apps.<app>.shards`, docs/sharding.md); 0 when the
app runs one leader with standbys. Fails for an app that cannot be sharded. Call with (dict "root" $ "app" $app).
*/}}
{{- define "kruise-ts.appShards" -}}
{{- $appValues := get .root.Values.apps .app.name | default dict -}}
{{- $shards := int ($appValues.shards | default 0) -}}
{{- if lt $shards 0 -}}
{{- fail (printf "apps.%s.shards must be 0 (one leader) or more, got %d" .app.name $shards) -}}
{{- end -}}
{{- if and (gt $shards 0) (not .app.shardable) -}}
{{- fail (printf "apps.%s.shards: the %s app cannot be sharded (its status and updates cross workloads; docs/sharding.md); use apps.%s.replicas" .app.name .app.title .app.name) -}}
{{- end -}}
{{- $shards -}}
{{- end -}}

{{/* The name of one app's Lease (`--leader-election-id`). Call with (dict "root" $ "app" $app). */}}
{{- define "kruise-ts.leaseName" -}}
{{- include "kruise-ts.appFullname" . -}}
{{- end -}}

{{/* Checks that JSON Schema cannot express: fails the render with a message naming the values. */}}
{{- define "kruise-ts.validate" -}}
{{- if eq (int .Values.metrics.port) (int .Values.health.port) -}}
{{- fail (printf "metrics.port and health.port must differ (both are %d)" (int .Values.metrics.port)) -}}
{{- end -}}
{{- if has (int .Values.webhook.port) (list (int .Values.metrics.port) (int .Values.health.port)) -}}
{{- fail (printf "webhook.port must differ from metrics.port and health.port (it is %d)" (int .Values.webhook.port)) -}}
{{- end -}}
{{- end -}}
