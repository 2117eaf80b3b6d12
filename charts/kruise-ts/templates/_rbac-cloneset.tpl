{{/*
The CloneSet app's cluster-wide rules: exactly the requests its code makes (apps/cloneset/src and the
packages it uses, with its validation webhook), no wildcards, no Secrets. Call with (dict "root" $
"gates" $gates "app" $app). Its only Secret access is get/update of its own webhook certificates
Secret, a Role of its own in the release namespace (templates/webhook.yaml; none with cert-manager or
webhook.validation.enabled=false).

- clonesets get/list/watch: the informer and the fresh read before adopting pods (read-state.ts);
  patch: trimming scaleStrategy.podsToDelete (pods-to-delete.ts). No update: nothing replaces a CloneSet.
- clonesets/status patch: one merge patch of the changed status fields (status/update-status.ts).
- clonesets/finalizers update: pods, PVCs and ControllerRevisions get an owner reference to their
  CloneSet with blockOwnerDeletion, which the OwnerReferencesPermissionEnforcement admission plugin
  (when enabled) allows only to who may update the owner's finalizers.
- pods get/list/watch/create/patch/delete: informer, re-reads before retried writes (lifecycle,
  in-place update, podsToDelete), creation, adoption/release, in-place updates, lifecycle and
  revision labels, deletion with a uid precondition. No update: every write is a patch. `create` also
  covers the template validation (packages/template-validation): the validation webhook, and the
  controller before a template's first pod, create the pod the template describes as a server-side
  dry run (dryRun=All: admitted and validated like a real create, which RBAC authorizes the same way,
  and never stored), in the CloneSet's namespace.
- pods/status patch: readiness-gate conditions, in-place update state, lifecycle with markPodNotReady.
- pods/finalizers update: with scaleStrategy.disablePVCReuse a finished pod's PVCs are handed to that
  pod (owner reference with blockOwnerDeletion), see clonesets/finalizers.
- pods/resize patch: only with InPlaceWorkloadVerticalScaling=true (in-place cpu/memory changes).
- persistentvolumeclaims list/watch/create/patch/delete: informer, per-pod PVCs from
  volumeClaimTemplates, hand-over to a pod, clean-up, and the template validation's dry runs of the
  claim templates (as for pods). No get: they are only read from the cache.
- controllerrevisions get/list/watch/create/patch/delete: informer, revisions, re-read on a
  collision, renumbering a reused revision, history truncation.
- nodes list/watch: the informer behind the deletion order's spreading rule.
- events create/patch: Events on CloneSets, in the CloneSets' namespaces (patch: repeated events are
  counted on the existing Event).
- validatingwebhookconfigurations get/patch, only the app's own configuration
  `<fullname>-cloneset-validation` (resourceNames; kruise-ts.webhook.validatingConfigurationRule in
  templates/_webhook.tpl): the CA-bundle injector of its webhook server reads it and JSON-patches
  `caBundle`. It never lists, watches or updates, so no unrestricted rule is needed. Not rendered with
  webhook.certManager.enabled (cert-manager injects then) or webhook.validation.enabled=false.
*/}}
{{- define "kruise-ts.rbac.cloneset.rules" -}}
- apiGroups: [apps.kruise.io]
  resources: [clonesets]
  verbs: [get, list, watch, patch]
- apiGroups: [apps.kruise.io]
  resources: [clonesets/status]
  verbs: [patch]
- apiGroups: [apps.kruise.io]
  resources: [clonesets/finalizers]
  verbs: [update]
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list, watch, create, patch, delete]
- apiGroups: [""]
  resources: [pods/status]
  verbs: [patch]
- apiGroups: [""]
  resources: [pods/finalizers]
  verbs: [update]
{{- if .gates.InPlaceWorkloadVerticalScaling }}
- apiGroups: [""]
  resources: [pods/resize]
  verbs: [patch]
{{- end }}
- apiGroups: [""]
  resources: [persistentvolumeclaims]
  verbs: [list, watch, create, patch, delete]
- apiGroups: [apps]
  resources: [controllerrevisions]
  verbs: [get, list, watch, create, patch, delete]
- apiGroups: [""]
  resources: [nodes]
  verbs: [list, watch]
- apiGroups: [""]
  resources: [events]
  verbs: [create, patch]
{{- include "kruise-ts.webhook.validatingConfigurationRule" . }}
{{- end -}}

{{/* Rules in the release namespace only: none (its revisions live next to its workloads). */}}
{{- define "kruise-ts.rbac.cloneset.releaseNamespaceRules" -}}
{{- end -}}

{{/* What users holding the built-in view role may do with CloneSets (aggregated ClusterRole). */}}
{{- define "kruise-ts.rbac.cloneset.viewRules" -}}
- apiGroups: [apps.kruise.io]
  resources: [clonesets, clonesets/scale, clonesets/status]
  verbs: [get, list, watch]
{{- end -}}

{{/* What users holding the built-in edit or admin role may also do (edit aggregates into admin). */}}
{{- define "kruise-ts.rbac.cloneset.editRules" -}}
- apiGroups: [apps.kruise.io]
  resources: [clonesets, clonesets/scale]
  verbs: [create, delete, deletecollection, patch, update]
{{- end -}}
