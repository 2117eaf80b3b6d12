{{/*
The BroadcastJob app's cluster-wide rules: exactly the requests its code makes
(apps/broadcastjob/src and the packages it uses), no wildcards, no Secrets. Call with
(dict "root" $ "gates" $gates).

- broadcastjobs.apps.kruise.io list/watch: the informer (no get: jobs are read only from the
  cache). delete: a finished job whose ttlSecondsAfterFinished passed (with a uid precondition; its
  pods go with it, by the garbage collector). No patch or update: the controller never writes a
  job's spec.
- broadcastjobs/status patch: one merge patch of the changed status fields.
- broadcastjobs/finalizers update: pods get a controller reference to their job with
  blockOwnerDeletion, which the OwnerReferencesPermissionEnforcement admission plugin (when enabled)
  allows only to who may update the owner's finalizers.
- pods list/watch/create/delete: informer, one pod per eligible node, deletion (a pod whose node no
  longer fits, a second pod on one node, the running pods of a node that left and of a failed or
  finished job) with a uid precondition. No get, patch or update: pods are read from the cache and
  never changed, and a pod bound by spec.nodeName (--assign-bcj-pods-by-scheduler=false) is created
  bound, which needs no pods/binding.
- nodes list/watch: which nodes are eligible (labels, taints, unschedulable, allocatable).
- events create/patch: Events on the jobs, in their namespaces.
*/}}
{{- define "kruise-ts.rbac.broadcastjob.rules" -}}
- apiGroups: [apps.kruise.io]
  resources: [broadcastjobs]
  verbs: [list, watch, delete]
- apiGroups: [apps.kruise.io]
  resources: [broadcastjobs/status]
  verbs: [patch]
- apiGroups: [apps.kruise.io]
  resources: [broadcastjobs/finalizers]
  verbs: [update]
- apiGroups: [""]
  resources: [pods]
  verbs: [list, watch, create, delete]
- apiGroups: [""]
  resources: [nodes]
  verbs: [list, watch]
- apiGroups: [""]
  resources: [events]
  verbs: [create, patch]
{{- end -}}

{{/* Rules in the release namespace only: none. */}}
{{- define "kruise-ts.rbac.broadcastjob.releaseNamespaceRules" -}}
{{- end -}}

{{/* What users holding the built-in view role may do with BroadcastJobs (aggregated ClusterRole). */}}
{{- define "kruise-ts.rbac.broadcastjob.viewRules" -}}
- apiGroups: [apps.kruise.io]
  resources: [broadcastjobs, broadcastjobs/status]
  verbs: [get, list, watch]
{{- end -}}

{{/* What users holding the built-in edit or admin role may also do (edit aggregates into admin). */}}
{{- define "kruise-ts.rbac.broadcastjob.editRules" -}}
- apiGroups: [apps.kruise.io]
  resources: [broadcastjobs]
  verbs: [create, delete, deletecollection, patch, update]
{{- end -}}
