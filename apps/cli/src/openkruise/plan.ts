/**
 * What `migrate from-openkruise` does about what it found (a pure function), in the order that never
 * leaves pod creation refused:
 *
 * 1. OpenKruise's webhook configurations are deleted while its manager still runs. Its pod webhook has
 *    failurePolicy Fail, so once the manager is gone every pod create it covers is refused until the
 *    configuration is; deleted first, every admission call up to the deletion is still answered.
 *    Setting failurePolicy Ignore instead would not hold: the running manager rewrites its
 *    configurations from their `template` annotation whenever they change.
 * 2. The manager Deployment is scaled to 0, not deleted (a rollback scales it back), and its pods are
 *    waited for: a terminating manager may still hold the leader Lease and act.
 * 3. CRDs that OpenKruise converts and whose versions all have the same schema get conversion None:
 *    the API server then converts by changing `apiVersion` alone, which loses nothing. The others keep
 *    OpenKruise's webhook, which no longer answers, until kruise-ts's CRDs replace it.
 *
 * kruise-daemon is left running: it does not depend on the manager, and it is the node agent that
 * restarts containers for in-place updates of env from metadata, which kruise-ts's controllers rely on.
 */
import type { CrdFinding, DaemonFinding, Findings, ManagerFinding, WebhookConfigurationFinding } from './findings.ts';

export type Change =
  | { readonly type: 'delete-configuration'; readonly configuration: WebhookConfigurationFinding }
  | { readonly type: 'stop-manager'; readonly manager: ManagerFinding }
  | { readonly type: 'conversion-none'; readonly crd: CrdFinding };

/** Left as it is, and why. */
export type Kept =
  | { readonly type: 'daemon'; readonly daemon: DaemonFinding }
  | { readonly type: 'crd-to-replace'; readonly crd: CrdFinding };

export interface Plan {
  /** Why nothing may be changed; empty when the changes may go ahead. */
  readonly refusals: readonly string[];
  readonly changes: readonly Change[];
  readonly kept: readonly Kept[];
}

export function planMigration(findings: Findings): Plan {
  const refusals = findings.configurations.map(refusalOf).filter((refusal) => refusal !== undefined);
  const configurations = findings.configurations
    .filter((configuration) => refusalOf(configuration) === undefined)
    .toSorted((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'mutating' ? -1 : 1));
  const { manager, daemon } = findings;
  const converted = findings.crds.filter((crd) => crd.convertedByOpenKruise);
  const changes: Change[] = [
    ...configurations.map((configuration) => ({ type: 'delete-configuration' as const, configuration })),
    ...(manager !== undefined && (manager.replicas > 0 || manager.pods > 0)
      ? [{ type: 'stop-manager' as const, manager }]
      : []),
    ...converted.filter((crd) => crd.sameSchemas).map((crd) => ({ type: 'conversion-none' as const, crd })),
  ];
  const kept: Kept[] = [
    ...(daemon === undefined ? [] : [{ type: 'daemon' as const, daemon }]),
    ...converted.filter((crd) => !crd.sameSchemas).map((crd) => ({ type: 'crd-to-replace' as const, crd })),
  ];
  return { refusals, changes, kept };
}

function refusalOf(configuration: WebhookConfigurationFinding): string | undefined {
  const name = `${configuration.kind}webhookconfigurations.admissionregistration.k8s.io ${JSON.stringify(configuration.name)}`;
  const elsewhere = configuration.elsewhere.join(', ');
  if (configuration.openKruiseWebhooks > 0 && configuration.elsewhere.length > 0) {
    return `${name} has OpenKruise's webhooks and others (calling ${elsewhere}): remove OpenKruise's webhooks from it yourself, then run this again`;
  }
  if (configuration.openKruiseWebhooks === 0 && configuration.webhooks > 0) {
    return `${name} has OpenKruise's name but its webhooks call ${elsewhere}, not OpenKruise's Service: if OpenKruise runs in another namespace, pass --openkruise-namespace; if it is not OpenKruise's, this command will not touch it, so stop OpenKruise by hand (docs/migrating-from-openkruise.md)`;
  }
  return undefined;
}
