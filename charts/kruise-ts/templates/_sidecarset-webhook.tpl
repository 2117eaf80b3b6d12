{{/*
Names of the SidecarSet app's pod webhook (templates/sidecarset-webhook.yaml renders its
MutatingWebhookConfiguration). Its Service, certificates and flags are every webhook app's
(templates/_webhook.tpl, templates/webhook.yaml): `<fullname>-sidecarset-webhook`,
`<fullname>-sidecarset-webhook-certs`. Every define here takes the root context.
*/}}

{{/* The webhook's name inside the configuration: POD_WEBHOOK_NAME of apps/sidecarset/src/webhook/webhook-configuration.ts. */}}
{{- define "kruise-ts.sidecarset.webhookName" -}}
mpod.kruise-ts.io
{{- end -}}

{{/* The MutatingWebhookConfiguration (cluster-scoped, so named after the release). */}}
{{- define "kruise-ts.sidecarset.webhookConfiguration" -}}
{{- include "kruise-ts.fullname" . }}-sidecarset
{{- end -}}

{{/* The namespaces the webhook skips: kube-system and the release's own, so the app's pods never wait for themselves. */}}
{{- define "kruise-ts.sidecarset.excludedNamespaces" -}}
{{- list "kube-system" .Release.Namespace | uniq | toJson -}}
{{- end -}}
