{{/*
Names and flags of the SidecarSet app's pod webhook (templates/sidecarset-webhook.yaml renders its
objects). Every define here takes the root context.
*/}}

{{/* The webhook's name inside the configuration: POD_WEBHOOK_NAME of apps/sidecarset/src/webhook/webhook-configuration.ts. */}}
{{- define "kruise-ts.sidecarset.webhookName" -}}
mpod.kruise-ts.io
{{- end -}}

{{/* The Service the API server calls (443 -> the `webhook` container port); the serving certificate is for its DNS names. */}}
{{- define "kruise-ts.sidecarset.webhookService" -}}
{{- include "kruise-ts.fullname" . }}-sidecarset-webhook
{{- end -}}

{{/* The MutatingWebhookConfiguration (cluster-scoped, so named after the release). */}}
{{- define "kruise-ts.sidecarset.webhookConfiguration" -}}
{{- include "kruise-ts.fullname" . }}-sidecarset
{{- end -}}

{{/* The Secret in which the app's replicas share the certificates they make (without cert-manager). */}}
{{- define "kruise-ts.sidecarset.webhookCertsSecret" -}}
{{- include "kruise-ts.fullname" . }}-sidecarset-webhook-certs
{{- end -}}

{{/* cert-manager's Certificate, its Secret and the self-signed Issuer (with webhook.certManager.enabled). */}}
{{- define "kruise-ts.sidecarset.certificate" -}}
{{- include "kruise-ts.fullname" . }}-sidecarset-webhook
{{- end -}}

{{- define "kruise-ts.sidecarset.certificateSecret" -}}
{{- include "kruise-ts.fullname" . }}-sidecarset-webhook-tls
{{- end -}}

{{- define "kruise-ts.sidecarset.issuer" -}}
{{- include "kruise-ts.fullname" . }}-sidecarset-webhook-selfsigned
{{- end -}}

{{/* Where the pods mount cert-manager's Secret (`--webhook-cert-dir`). */}}
{{- define "kruise-ts.sidecarset.certDir" -}}
/etc/kruise-ts/webhook-certs
{{- end -}}

{{/* The namespaces the webhook skips: kube-system and the release's own, so the app's pods never wait for themselves. */}}
{{- define "kruise-ts.sidecarset.excludedNamespaces" -}}
{{- list "kube-system" .Release.Namespace | uniq | toJson -}}
{{- end -}}

{{/*
The app's webhook flags, as a YAML list. The controller gets the same excluded namespaces as the
configuration (it never reports pods the webhook cannot see). With cert-manager the app reads the
mounted files and neither shares certificates through a Secret nor writes caBundles (cert-manager's
CA injector does); otherwise it makes them for the Service's names and keeps the caBundle.
*/}}
{{- define "kruise-ts.sidecarset.args" -}}
- --webhook-port={{ int .Values.webhook.port }}
- --sidecarset-excluded-namespaces={{ include "kruise-ts.sidecarset.excludedNamespaces" . | fromJsonArray | join "," }}
{{- if .Values.webhook.certManager.enabled }}
- --webhook-cert-dir={{ include "kruise-ts.sidecarset.certDir" . }}
{{- else }}
- --webhook-service-name={{ include "kruise-ts.sidecarset.webhookService" . }}
- --webhook-service-namespace={{ .Release.Namespace }}
- --webhook-certs-secret={{ include "kruise-ts.sidecarset.webhookCertsSecret" . }}
- --webhook-mutating-configurations={{ include "kruise-ts.sidecarset.webhookConfiguration" . }}
{{- end }}
{{- end -}}

{{/*
The caBundle the live configuration already has for our webhook (empty on a first install and with
`helm template`). Re-rendering it keeps what the app (or cert-manager) injected under every way Helm
may apply an upgrade: a three-way merge or server-side apply would keep an omitted field anyway, but
`--force-replace` (or a GitOps tool replacing the object) would write the chart's version and leave
the API server without a CA until the app's next resync, a minute later.
*/}}
{{- define "kruise-ts.sidecarset.liveCaBundle" -}}
{{- $live := lookup "admissionregistration.k8s.io/v1" "MutatingWebhookConfiguration" "" (include "kruise-ts.sidecarset.webhookConfiguration" .) -}}
{{- $name := include "kruise-ts.sidecarset.webhookName" . -}}
{{- range $webhook := dig "webhooks" list ($live | default dict) -}}
{{- if eq (get $webhook "name") $name -}}
{{- dig "clientConfig" "caBundle" "" $webhook -}}
{{- end -}}
{{- end -}}
{{- end -}}
