/** What `migrate from-openkruise` prints: what it found, what it will change and what it leaves (pure functions). */
import { anythingOfOpenKruise } from './findings.ts';
import type { CrdFinding, Findings, WebhookConfigurationFinding } from './findings.ts';
import type { Change, Kept, Plan } from './plan.ts';

/** kruise-ts's CRDs, as the repository and the chart ship them. */
export const APPLY_CRDS_COMMAND = 'kubectl apply --server-side --force-conflicts -f crds/';

/** How kubectl prints a changed object: `deployment.apps/kruise-controller-manager`. */
export function configurationName(configuration: Pick<WebhookConfigurationFinding, 'kind' | 'name'>): string {
  return `${configuration.kind}webhookconfiguration.admissionregistration.k8s.io/${configuration.name}`;
}

export function deploymentName(name: string): string {
  return `deployment.apps/${name}`;
}

export function daemonSetName(name: string): string {
  return `daemonset.apps/${name}`;
}

export function crdName(name: string): string {
  return `customresourcedefinition.apiextensions.k8s.io/${name}`;
}

function count(number: number, noun: string): string {
  return `${String(number)} ${noun}${number === 1 ? '' : 's'}`;
}

/** One line per object found, indented under a heading. */
export function foundLines(findings: Findings): string[] {
  const { manager, daemon } = findings;
  const lines = [
    ...findings.configurations.map(
      (configuration) => `${configurationName(configuration)}: ${configurationSummary(configuration)}`,
    ),
    ...(manager === undefined
      ? []
      : [`${deploymentName(manager.name)}: ${count(manager.replicas, 'replica')}, ${count(manager.pods, 'pod')}`]),
    ...(daemon === undefined ? [] : [`${daemonSetName(daemon.name)}: ${count(daemon.pods, 'pod')}`]),
    ...findings.crds.map((crd) => `${crdName(crd.name)}: ${crdSummary(crd)}`),
  ];
  const heading = anythingOfOpenKruise(findings)
    ? `found, with OpenKruise's namespace ${findings.namespace}:`
    : `found nothing of OpenKruise (namespace ${findings.namespace})${lines.length === 0 ? '' : '; the CRDs of the kinds kruise-ts serves:'}`;
  return [heading, ...lines.map((line) => `  ${line}`)];
}

function configurationSummary(configuration: WebhookConfigurationFinding): string {
  const calls = `${count(configuration.openKruiseWebhooks, 'webhook')} calling OpenKruise's Service`;
  const blocking =
    configuration.podCreationBlockers === 0
      ? ''
      : `, ${String(configuration.podCreationBlockers)} refusing pod creation when it does not answer (failurePolicy Fail)`;
  const others =
    configuration.elsewhere.length === 0 ? '' : `, ${count(configuration.elsewhere.length, 'other webhook')}`;
  return `${calls}${blocking}${others}`;
}

function crdSummary(crd: CrdFinding): string {
  const versions = crd.versions
    .map((version) => `${version.name}${version.storage ? ' (storage)' : ''}${version.served ? '' : ' (not served)'}`)
    .join(', ');
  return `versions ${versions}; stored ${crd.storedVersions.join(', ') || '(none)'}; conversion ${crd.conversion}`;
}

/** The changes, numbered, as `--dry-run` shows them before any is made. */
export function plannedChangeLines(plan: Plan): string[] {
  if (plan.changes.length === 0) {
    return ['nothing to change'];
  }
  return [
    'changes, in this order:',
    ...plan.changes.map((change, index) => `  ${String(index + 1)}. ${plannedChange(change)}`),
  ];
}

function plannedChange(change: Change): string {
  switch (change.type) {
    case 'delete-configuration':
      return `delete ${configurationName(change.configuration)} (first, while OpenKruise's manager still answers it)`;
    case 'stop-manager': {
      const { manager } = change;
      if (manager.replicas === 0) {
        return `wait until the pods of ${deploymentName(manager.name)} (already at 0 replicas) are gone`;
      }
      return `scale ${deploymentName(manager.name)} from ${String(manager.replicas)} to 0 replicas (kept for a rollback) and wait until its pods are gone`;
    }
    case 'conversion-none':
      return `set the conversion of ${crdName(change.crd.name)} to None (its versions have the same schema: nothing is lost)`;
  }
}

/** What is left as it is, and what the user does next. */
export function keptLines(kept: readonly Kept[]): string[] {
  if (kept.length === 0) {
    return [];
  }
  return ['left as they are:', ...kept.map((entry) => `  ${keptLine(entry)}`)];
}

function keptLine(entry: Kept): string {
  if (entry.type === 'daemon') {
    return `${daemonSetName(entry.daemon.name)}: independent of the manager; it restarts containers for in-place updates of env from metadata, which kruise-ts uses`;
  }
  const { crd } = entry;
  const what = crd.servedByKruiseTs
    ? `replace it with kruise-ts's (${APPLY_CRDS_COMMAND}, or the chart), whose own webhook converts`
    : 'kruise-ts does not serve this kind: its objects are not reconciled, and are readable only in the version they are stored in';
  return `${crdName(crd.name)}: its versions differ and OpenKruise's stopped Service converts them; ${what}`;
}

/** What the user does once OpenKruise is stopped. */
export function nextLines(): string[] {
  return [
    `next: install kruise-ts with the feature gates OpenKruise had; its CRDs replace OpenKruise's (${APPLY_CRDS_COMMAND}, or helm install with --take-ownership): docs/migrating-from-openkruise.md`,
  ];
}

/** After a real run: how to go back. */
export function rollbackLines(findings: Findings): string[] {
  const { manager } = findings;
  if (manager === undefined) {
    return [];
  }
  const replicas = manager.replicas > 0 ? manager.replicas : (manager.recordedReplicas ?? 1);
  return [
    `to go back to OpenKruise: stop kruise-ts, re-create OpenKruise's webhook configurations and CRDs (helm upgrade of its release), then kubectl scale deployment ${manager.name} -n ${findings.namespace} --replicas ${String(replicas)}`,
  ];
}
