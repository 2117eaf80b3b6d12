/**
 * The names OpenKruise's Helm chart and manager give their objects (openkruise/kruise
 * pkg/webhook/util: the Service and Secret names the manager defaults to; the chart's manager.yaml
 * and webhookconfiguration.yaml: the Deployment, DaemonSet and configurations). Only the namespace
 * is a chart value (`installation.namespace`).
 */
export const OPENKRUISE_DEFAULT_NAMESPACE = 'kruise-system';
export const OPENKRUISE_MANAGER_DEPLOYMENT = 'kruise-controller-manager';
export const OPENKRUISE_DAEMON_DAEMONSET = 'kruise-daemon';
/** The Service every webhook (admission and CRD conversion) of OpenKruise's manager is called through. */
export const OPENKRUISE_WEBHOOK_SERVICE = 'kruise-webhook-service';
export const OPENKRUISE_MUTATING_CONFIGURATION = 'kruise-mutating-webhook-configuration';
export const OPENKRUISE_VALIDATING_CONFIGURATION = 'kruise-validating-webhook-configuration';

/**
 * Where kruise-ts records the manager's replicas when it scales it to 0, so that a rollback knows what
 * to scale it back to.
 */
export const REPLICAS_BEFORE_MIGRATION_ANNOTATION = 'kruise-ts.io/replicas-before-migration';

/** The CRDs whose kinds kruise-ts's controllers serve (the rest of OpenKruise's kinds are not served). */
export const KRUISE_TS_CRDS: readonly string[] = [
  'clonesets.apps.kruise.io',
  'statefulsets.apps.kruise.io',
  'sidecarsets.apps.kruise.io',
  'broadcastjobs.apps.kruise.io',
];
