{{/*
Names and flags of the apps' webhook servers (templates/webhook.yaml renders their objects). Every app
with a webhook runs one HTTPS server on every replica, behind a Service of its own, with certificates
of its own: the validation webhook of its kind (`validationWebhook` in files/apps.yaml, with
webhook.validation.enabled) and, for the SidecarSet app, the pod webhook as well
(templates/sidecarset-webhook.yaml, templates/_sidecarset-webhook.tpl). Every define here takes
(dict "root" $ "app" $app) unless it says otherwise; the names are the SidecarSet app's of earlier
versions, made per app.
*/}}

{{/* "true" when the app serves the SidecarSet pod webhook (the only mutating one), else empty. */}}
{{- define "kruise-ts.webhook.hasPodWebhook" -}}
{{- $gates := include "kruise-ts.featureGates" .root | fromJson -}}
{{- if and (eq .app.name "sidecarset") $gates.PodWebhook -}}true{{- end -}}
{{- end -}}

{{/* "true" when the chart renders the app's validation webhook: the app has one and webhook.validation.enabled. */}}
{{- define "kruise-ts.webhook.hasValidation" -}}
{{- if and .app.validationWebhook .root.Values.webhook.validation.enabled -}}true{{- end -}}
{{- end -}}

{{/* "true" when the app serves the conversion webhook of its CRD (`conversion` in files/apps.yaml), with or without its validation webhook. */}}
{{- define "kruise-ts.webhook.hasConversion" -}}
{{- if .app.conversion -}}true{{- end -}}
{{- end -}}

{{/* "true" when the app serves any webhook: it then gets the port, the flags, the Service and the certificates. */}}
{{- define "kruise-ts.webhook.enabled" -}}
{{- if or (include "kruise-ts.webhook.hasPodWebhook" .) (include "kruise-ts.webhook.hasValidation" .) (include "kruise-ts.webhook.hasConversion" .) -}}true{{- end -}}
{{- end -}}

{{/* The Service the API server calls (443 -> the `webhook` container port); the serving certificate is for its DNS names. */}}
{{- define "kruise-ts.webhook.service" -}}
{{- include "kruise-ts.appFullname" . }}-webhook
{{- end -}}

{{/* The Secret in which the app's replicas share the certificates they make (without cert-manager). */}}
{{- define "kruise-ts.webhook.certsSecret" -}}
{{- include "kruise-ts.appFullname" . }}-webhook-certs
{{- end -}}

{{/* cert-manager's Certificate, its Secret and the self-signed Issuer (with webhook.certManager.enabled). */}}
{{- define "kruise-ts.webhook.certificate" -}}
{{- include "kruise-ts.appFullname" . }}-webhook
{{- end -}}

{{- define "kruise-ts.webhook.certificateSecret" -}}
{{- include "kruise-ts.appFullname" . }}-webhook-tls
{{- end -}}

{{- define "kruise-ts.webhook.issuer" -}}
{{- include "kruise-ts.appFullname" . }}-webhook-selfsigned
{{- end -}}

{{/* Where the pods mount cert-manager's Secret (`--webhook-cert-dir`); the same in every app. */}}
{{- define "kruise-ts.webhook.certDir" -}}
/etc/kruise-ts/webhook-certs
{{- end -}}

{{/* The app's ValidatingWebhookConfiguration (cluster-scoped, so named after the release): "<fullname>-<app>-validation". */}}
{{- define "kruise-ts.webhook.validatingConfiguration" -}}
{{- include "kruise-ts.appFullname" . }}-validation
{{- end -}}

{{/*
The app's webhook flags, as a YAML list (nothing for an app without a webhook). With cert-manager the
app reads the mounted files and neither shares certificates through a Secret nor writes caBundles
(cert-manager's CA injector does); otherwise it makes them for its Service's names, stores them in its
Secret and keeps the caBundle of its configurations. The SidecarSet app's controller also gets the
namespaces its pod webhook skips (it never reports pods the webhook cannot see).
*/}}
{{- define "kruise-ts.webhook.args" -}}
{{- if include "kruise-ts.webhook.enabled" . -}}
{{- $podWebhook := include "kruise-ts.webhook.hasPodWebhook" . -}}
{{- $validation := include "kruise-ts.webhook.hasValidation" . -}}
- --webhook-port={{ int .root.Values.webhook.port }}
{{- if $podWebhook }}
- --sidecarset-excluded-namespaces={{ include "kruise-ts.sidecarset.excludedNamespaces" .root | fromJsonArray | join "," }}
{{- end }}
{{- if .root.Values.webhook.certManager.enabled }}
- --webhook-cert-dir={{ include "kruise-ts.webhook.certDir" . }}
{{- else }}
- --webhook-service-name={{ include "kruise-ts.webhook.service" . }}
- --webhook-service-namespace={{ .root.Release.Namespace }}
- --webhook-certs-secret={{ include "kruise-ts.webhook.certsSecret" . }}
{{- if $podWebhook }}
- --webhook-mutating-configurations={{ include "kruise-ts.sidecarset.webhookConfiguration" .root }}
{{- end }}
{{- if $validation }}
- --webhook-validating-configurations={{ include "kruise-ts.webhook.validatingConfiguration" . }}
{{- end }}
{{- if include "kruise-ts.webhook.hasConversion" . }}
- --webhook-conversion-crds={{ .app.conversion.crd }}
{{- end }}
{{- end }}
{{- end -}}
{{- end -}}

{{/*
The app's rule on its own ValidatingWebhookConfiguration, for its CA-bundle injector: get, then a
JSON patch of `caBundle`, restricted by resourceNames (it never lists or watches, which could not be
restricted to a name). Nothing with webhook.certManager.enabled (cert-manager injects then) or
without the validation webhook. Included by each templates/_rbac-<app>.tpl, called with the rules'
(dict "root" $ "gates" $gates "app" $app).
*/}}
{{- define "kruise-ts.webhook.validatingConfigurationRule" -}}
{{- if and (include "kruise-ts.webhook.hasValidation" .) (not .root.Values.webhook.certManager.enabled) }}
- apiGroups: [admissionregistration.k8s.io]
  resources: [validatingwebhookconfigurations]
  resourceNames: [{{ include "kruise-ts.webhook.validatingConfiguration" . }}]
  verbs: [get, patch]
{{- end }}
{{- end -}}

{{/*
The app's rule on its own CRD, for the CA-bundle injector of its conversion webhook: get, then a JSON
patch of `spec.conversion.webhook.clientConfig.caBundle`, restricted by resourceNames. Nothing with
webhook.certManager.enabled (cert-manager's CA injector fills it then, from the CRD's
cert-manager.io/inject-ca-from annotation) or for an app without a conversion webhook. Called with
(dict "root" $ "gates" $gates "app" $app).
*/}}
{{- define "kruise-ts.webhook.conversionCrdRule" -}}
{{- if and (include "kruise-ts.webhook.hasConversion" .) (not .root.Values.webhook.certManager.enabled) }}
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [{{ .app.conversion.crd }}]
  verbs: [get, patch]
{{- end }}
{{- end -}}

{{/*
The caBundle the live configuration already has for one of its webhooks (empty on a first install and
with `helm template`). Re-rendering it keeps what the app (or cert-manager) injected under every way
Helm may apply an upgrade: a three-way merge or server-side apply would keep an omitted field anyway,
but `--force-replace` (or a GitOps tool replacing the object) would write the chart's version and
leave the API server without a CA until the app's next resync, a minute later. Called with
(dict "kind" "MutatingWebhookConfiguration" "name" <configuration> "webhook" <webhook name>).
*/}}
{{- define "kruise-ts.webhook.liveCaBundle" -}}
{{- $live := lookup "admissionregistration.k8s.io/v1" .kind "" .name -}}
{{- $name := .webhook -}}
{{- range $webhook := dig "webhooks" list ($live | default dict) -}}
{{- if eq (get $webhook "name") $name -}}
{{- dig "clientConfig" "caBundle" "" $webhook -}}
{{- end -}}
{{- end -}}
{{- end -}}
