{{/*
The SidecarSet app's cluster-wide rules: exactly the requests its code makes (apps/sidecarset/src and
the controller-runtime webhook code it runs), no wildcards, no Secrets. Call with
(dict "root" $ "gates" $gates "app" $app). Its Secret access (get/update of its webhook certificates
Secret, not with cert-manager) is a Role of its own in the release namespace (templates/webhook.yaml).

- sidecarsets list/watch/patch: the informer shared by the controller and the pod webhook, and one
  merge patch of the SidecarSet's kruise.io/sidecarset-hash and -hash-without-image annotations when
  they change (OpenKruise writes them; tools read them). No get: the reconciler and the webhook read
  only the cache; no update: nothing writes a SidecarSet's spec.
- sidecarsets/status patch: one merge patch of the changed status fields.
- sidecarsets/finalizers update: the SidecarSet's ControllerRevisions get a controller reference with
  blockOwnerDeletion, which the OwnerReferencesPermissionEnforcement admission plugin (when enabled)
  allows only to who may update the owner's finalizers.
- pods list/watch/patch: the informer (status, missed-injection report, upgrade candidates), and the
  in-place sidecar upgrade (one JSON patch per pod, guarded by its resourceVersion).
- pods/status patch: the SidecarSetUpgradable condition (OpenKruise's), written when it changes. No get, create or
  update cluster-wide: the pod webhook gets the pod in the AdmissionReview and answers with a patch
  the API server applies (the validation webhook's `create` is in the release namespace only, below).
- namespaces list/watch: the informer behind `namespaceSelector`.
- events create/patch: Warning Events on pods (their namespaces) and SidecarSets (`default`, they are
  cluster-scoped); patch counts a repeated Event.
- mutatingwebhookconfigurations get/patch, only the chart's own configuration (resourceNames): the
  CA-bundle injector reads it and JSON-patches `caBundle`. It never lists, watches or updates, so no
  unrestricted rule is needed. Not rendered with webhook.certManager.enabled (cert-manager injects
  then) or PodWebhook=false (no pod webhook, no configuration: as in OpenKruise, nothing injects).
- validatingwebhookconfigurations get/patch, only the app's own configuration
  `<fullname>-sidecarset-validation` (resourceNames; kruise-ts.webhook.validatingConfigurationRule in
  templates/_webhook.tpl): the same injector, for the SidecarSet validation webhook. Not rendered with
  webhook.certManager.enabled or webhook.validation.enabled=false.

In the release namespace only (a Role, `kruise-ts.rbac.sidecarset.releaseNamespaceRules`):

- controllerrevisions get/list/watch/create/patch/delete: the SidecarSets' revisions live in the
  controllers' own namespace, as OpenKruise keeps them in kruise-system (`--sidecarset-revision-namespace`,
  by default the leader-election namespace, which the chart sets to the release namespace). The
  informer (controller and webhook), re-reads on a name collision, creation, renumbering and the
  custom-version label as merge patches, history truncation. No update.
- pods create (only with webhook.validation.enabled): the SidecarSet validation webhook checks a
  SidecarSet's containers, volumes and the rest of what it would inject with the API server's own
  validation, by creating a pod holding them as a server-side dry run (dryRun=All: admitted and
  validated like a real create, which RBAC authorizes the same way, and never stored) in the release
  namespace, the one namespace the app is sure to exist and that its pod webhook skips. A real create
  is authorized too, and a pod created in a namespace may use any ServiceAccount and mount any Secret
  of that namespace; that adds no real power to the app: it may already patch every pod of the
  cluster (cluster-wide `pods` patch above, which replaces container images), so it can already run
  any code with the ServiceAccount and the mounted Secrets of any running pod, including the other
  apps' pods in the release namespace; and pods there are held to the namespace's Pod Security level
  (README's install enforces `restricted`). Install the chart in a namespace of its own, so that the
  release namespace holds nothing but the chart's objects.
- configmaps get, only `kruise-configuration` (resourceNames; with webhook.validation.enabled): the
  validation webhook reads OpenKruise's SidecarSet_PatchPodMetadata_WhiteList from it.
*/}}
{{- define "kruise-ts.rbac.sidecarset.rules" -}}
- apiGroups: [apps.kruise.io]
  resources: [sidecarsets]
  verbs: [list, watch, patch]
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
  resources: [pods/status]
  verbs: [patch]
- apiGroups: [""]
  resources: [namespaces]
  verbs: [list, watch]
- apiGroups: [""]
  resources: [events]
  verbs: [create, patch]
{{- if and (not .root.Values.webhook.certManager.enabled) (include "kruise-ts.webhook.hasPodWebhook" .) }}
- apiGroups: [admissionregistration.k8s.io]
  resources: [mutatingwebhookconfigurations]
  resourceNames: [{{ include "kruise-ts.sidecarset.webhookConfiguration" .root }}]
  verbs: [get, patch]
{{- end }}
{{- include "kruise-ts.webhook.validatingConfigurationRule" . }}
{{- include "kruise-ts.webhook.conversionCrdRule" . }}
{{- end -}}

{{/* The SidecarSet app's rules in the release namespace: its revisions, and the validation webhook's dry-run pods (see above). */}}
{{- define "kruise-ts.rbac.sidecarset.releaseNamespaceRules" -}}
- apiGroups: [apps]
  resources: [controllerrevisions]
  verbs: [get, list, watch, create, patch, delete]
{{- if include "kruise-ts.webhook.hasValidation" . }}
- apiGroups: [""]
  resources: [pods]
  verbs: [create]
- apiGroups: [""]
  resources: [configmaps]
  resourceNames: [kruise-configuration]
  verbs: [get]
{{- end }}
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
