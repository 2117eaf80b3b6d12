{{/*
The BroadcastJob app's cluster-wide rules: exactly the requests its code makes (apps/broadcastjob/src
and the packages it uses, with its validation webhook), no wildcards, no Secrets. Call with (dict
"root" $ "gates" $gates "app" $app). Its only Secret access is get/update of its own webhook
certificates Secret, a Role of its own in the release namespace (templates/webhook.yaml; none with
cert-manager or webhook.validation.enabled=false).

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
  finished job) with a uid precondition. No get or update, and no patch unsharded: pods are read from the cache and
  never changed (except with `apps.broadcastjob.shards` > 0: `patch`, by which the bucket labeller
  labels the pods it finds without their job's bucket label, such as OpenKruise's; without it every
  such pod got a 403 and its job was held back for ever), and a pod bound by spec.nodeName (--assign-bcj-pods-by-scheduler=false) is created
  bound, which needs no pods/binding. `create` also covers the template validation
  (packages/template-validation): the validation webhook creates the pod the job's template
  describes as a server-side dry run (dryRun=All: admitted and validated like a real create, which
  RBAC authorizes the same way, and never stored), in the job's namespace. A job has no claim
  templates, so no persistentvolumeclaims.
- nodes list/watch: which nodes are eligible (labels, taints, unschedulable, allocatable).
- events create/patch: Events on the jobs, in their namespaces.
- validatingwebhookconfigurations get/patch, only the app's own configuration
  `<fullname>-broadcastjob-validation` (resourceNames; kruise-ts.webhook.validatingConfigurationRule in
  templates/_webhook.tpl): the CA-bundle injector of its webhook server reads it and JSON-patches
  `caBundle`. It never lists, watches or updates, so no unrestricted rule is needed. Not rendered with
  webhook.certManager.enabled (cert-manager injects then) or webhook.validation.enabled=false.
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
  {{- if gt (int (include "kruise-ts.appShards" (dict "root" .root "app" .app))) 0 }}
  verbs: [list, watch, create, delete, patch]
  {{- else }}
  verbs: [list, watch, create, delete]
  {{- end }}
- apiGroups: [""]
  resources: [nodes]
  verbs: [list, watch]
- apiGroups: [""]
  resources: [events]
  verbs: [create, patch]
{{- include "kruise-ts.webhook.validatingConfigurationRule" . }}
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
