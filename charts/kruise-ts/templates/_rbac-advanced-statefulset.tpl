{{/*
The Advanced StatefulSet app's cluster-wide rules: exactly the requests its code makes
(apps/advanced-statefulset/src and the packages it uses, with its validation webhook), no wildcards,
no Secrets. Call with (dict "root" $ "gates" $gates "app" $app). Its only Secret access is get/update
of its own webhook certificates Secret, a Role of its own in the release namespace
(templates/webhook.yaml; none with cert-manager or webhook.validation.enabled=false).

- statefulsets.apps.kruise.io get/list/watch: the informer and the fresh read before adopting pods
  or revisions (read-state.ts). No patch or update: the controller never writes a set's spec.
- statefulsets/status patch: one merge patch of the changed status fields.
- statefulsets/finalizers update: pods and ControllerRevisions get a controller reference to their
  set with blockOwnerDeletion, which the OwnerReferencesPermissionEnforcement admission plugin (when
  enabled) allows only to who may update the owner's finalizers.
- pods get/list/watch/create/patch/delete: informer, re-reads before retried writes, creation,
  adoption/release, identity labels, in-place updates, lifecycle and revision labels, deletion with
  a uid precondition. No update: every write is a patch. `create` also covers the template
  validation (packages/template-validation): the validation webhook, and the controller before a
  template's first pod, create the pod the template describes as a server-side dry run (dryRun=All:
  admitted and validated like a real create, which RBAC authorizes the same way, and never stored),
  in the set's namespace.
- pods/status patch: readiness-gate conditions, in-place update state, lifecycle with markPodNotReady.
- pods/resize patch: only with InPlaceWorkloadVerticalScaling=true.
- persistentvolumeclaims list/watch/create/patch: informer, per-ordinal claims, owner references of
  the retention policy. No delete: claims are deleted only by the garbage collector, through the
  owner references the retention policy asks for. `create` also covers the template validation's
  dry runs of the volumeClaimTemplates (as for pods).
- controllerrevisions get/list/watch/create/patch/delete: revisions and history truncation.
- events create/patch: Events on the sets, in their namespaces.
- validatingwebhookconfigurations get/patch, only the app's own configuration
  `<fullname>-advanced-statefulset-validation` (resourceNames; kruise-ts.webhook.validatingConfigurationRule in
  templates/_webhook.tpl): the CA-bundle injector of its webhook server reads it and JSON-patches
  `caBundle`. It never lists, watches or updates, so no unrestricted rule is needed. Not rendered with
  webhook.certManager.enabled (cert-manager injects then) or webhook.validation.enabled=false.
*/}}
{{- define "kruise-ts.rbac.advanced-statefulset.rules" -}}
- apiGroups: [apps.kruise.io]
  resources: [statefulsets]
  verbs: [get, list, watch]
- apiGroups: [apps.kruise.io]
  resources: [statefulsets/status]
  verbs: [patch]
- apiGroups: [apps.kruise.io]
  resources: [statefulsets/finalizers]
  verbs: [update]
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list, watch, create, patch, delete]
- apiGroups: [""]
  resources: [pods/status]
  verbs: [patch]
{{- if .gates.InPlaceWorkloadVerticalScaling }}
- apiGroups: [""]
  resources: [pods/resize]
  verbs: [patch]
{{- end }}
- apiGroups: [""]
  resources: [persistentvolumeclaims]
  verbs: [list, watch, create, patch]
- apiGroups: [apps]
  resources: [controllerrevisions]
  verbs: [get, list, watch, create, patch, delete]
- apiGroups: [""]
  resources: [events]
  verbs: [create, patch]
{{- include "kruise-ts.webhook.validatingConfigurationRule" . }}
{{- include "kruise-ts.webhook.conversionCrdRule" . }}
{{- end -}}

{{/* Rules in the release namespace only: none (its revisions live next to its workloads). */}}
{{- define "kruise-ts.rbac.advanced-statefulset.releaseNamespaceRules" -}}
{{- end -}}

{{/* What users holding the built-in view role may do with Advanced StatefulSets (aggregated ClusterRole). */}}
{{- define "kruise-ts.rbac.advanced-statefulset.viewRules" -}}
- apiGroups: [apps.kruise.io]
  resources: [statefulsets, statefulsets/scale, statefulsets/status]
  verbs: [get, list, watch]
{{- end -}}

{{/* What users holding the built-in edit or admin role may also do (edit aggregates into admin). */}}
{{- define "kruise-ts.rbac.advanced-statefulset.editRules" -}}
- apiGroups: [apps.kruise.io]
  resources: [statefulsets, statefulsets/scale]
  verbs: [create, delete, deletecollection, patch, update]
{{- end -}}
