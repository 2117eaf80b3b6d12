{{/*
The SidecarSet app's cluster-wide rules: exactly the requests its code makes (apps/sidecarset/src and
the controller-runtime webhook code it runs), no wildcards, no Secrets. Call with
(dict "root" $ "gates" $gates). Its Secret access is a Role of its own in the release namespace
(templates/sidecarset-webhook.yaml).

- sidecarsets list/watch: the informer shared by the controller and the pod webhook. No get: the
  reconciler and the webhook read only the cache; no update: nothing writes a SidecarSet's spec.
- sidecarsets/status patch: one merge patch of the changed status fields.
- sidecarsets/finalizers update: the SidecarSet's ControllerRevisions get a controller reference with
  blockOwnerDeletion, which the OwnerReferencesPermissionEnforcement admission plugin (when enabled)
  allows only to who may update the owner's finalizers.
- pods list/watch/patch: the informer (status, missed-injection report, upgrade candidates), and the
  in-place sidecar upgrade (one JSON patch per pod, guarded by its resourceVersion). No get, create or
  update: the webhook gets the pod in the AdmissionReview and answers with a patch the API server applies.
- namespaces list/watch: the informer behind `namespaceSelector`.
- events create/patch: Warning Events on pods (their namespaces) and SidecarSets (`default`, they are
  cluster-scoped); patch counts a repeated Event.
- mutatingwebhookconfigurations get/patch, only the chart's own configuration (resourceNames): the
  CA-bundle injector reads it and JSON-patches `caBundle`. It never lists, watches or updates, so no
  unrestricted rule is needed. Not rendered with webhook.certManager.enabled: cert-manager injects then.

In the release namespace only (a Role, `kruise-ts.rbac.sidecarset.releaseNamespaceRules`):

- controllerrevisions get/list/watch/create/patch/delete: the SidecarSets' revisions live in the
  controllers' own namespace, as OpenKruise keeps them in kruise-system (`--sidecarset-revision-namespace`,
  by default the leader-election namespace, which the chart sets to the release namespace). The
  informer (controller and webhook), re-reads on a name collision, creation, renumbering and the
  custom-version label as merge patches, history truncation. No update.
*/}}
{{- define "kruise-ts.rbac.sidecarset.rules" -}}
- apiGroups: [apps.kruise.io]
  resources: [sidecarsets]
  verbs: [list, watch]
- apiGroups: [apps.kruise.io]
  resources: [sidecarsets/status]
  verbs: [patch]
- apiGroups: [apps.kruise.io]
  resources: [sidecarsets/finalizers]
  verbs: [update]
- apiGroups: [""]
  resources: [pods]
  verbs: [list, watch, patch]
- apiGroups: [""]
  resources: [namespaces]
  verbs: [list, watch]
- apiGroups: [""]
  resources: [events]
  verbs: [create, patch]
{{- if not .root.Values.webhook.certManager.enabled }}
- apiGroups: [admissionregistration.k8s.io]
  resources: [mutatingwebhookconfigurations]
  resourceNames: [{{ include "kruise-ts.sidecarset.webhookConfiguration" .root }}]
  verbs: [get, patch]
{{- end }}
{{- end -}}

{{/* The SidecarSet app's rules in the release namespace: its revisions (see above). */}}
{{- define "kruise-ts.rbac.sidecarset.releaseNamespaceRules" -}}
- apiGroups: [apps]
  resources: [controllerrevisions]
  verbs: [get, list, watch, create, patch, delete]
{{- end -}}

{{/*
What users holding the built-in view role may do with SidecarSets (aggregated ClusterRole). They are
cluster-scoped, so only cluster-wide bindings of view / edit / admin reach them.
*/}}
{{- define "kruise-ts.rbac.sidecarset.viewRules" -}}
- apiGroups: [apps.kruise.io]
  resources: [sidecarsets, sidecarsets/status]
  verbs: [get, list, watch]
{{- end -}}

{{/* What users holding the built-in edit or admin role may also do (edit aggregates into admin). */}}
{{- define "kruise-ts.rbac.sidecarset.editRules" -}}
- apiGroups: [apps.kruise.io]
  resources: [sidecarsets]
  verbs: [create, delete, deletecollection, patch, update]
{{- end -}}
