import { describe, expect, it } from 'vitest';

import type { CrdFinding, Findings, ManagerFinding, WebhookConfigurationFinding } from './findings.ts';
import { planMigration } from './plan.ts';
import type { Plan } from './plan.ts';

const MUTATING: WebhookConfigurationFinding = {
  kind: 'mutating',
  name: 'kruise-mutating-webhook-configuration',
  uid: 'm',
  namedAsOpenKruise: true,
  webhooks: 12,
  openKruiseWebhooks: 12,
  podCreationBlockers: 1,
  elsewhere: [],
};
const VALIDATING: WebhookConfigurationFinding = {
  ...MUTATING,
  kind: 'validating',
  name: 'kruise-validating-webhook-configuration',
  uid: 'v',
  podCreationBlockers: 0,
};
const MANAGER: ManagerFinding = {
  name: 'kruise-controller-manager',
  uid: 'd',
  resourceVersion: '5',
  replicas: 2,
  selector: 'control-plane=controller-manager',
  pods: 2,
  recordedReplicas: undefined,
};

function crd(plural: string, shape: Partial<CrdFinding>): CrdFinding {
  return {
    name: `${plural}.apps.kruise.io`,
    uid: plural,
    resourceVersion: '1',
    versions: [],
    storedVersions: ['v1beta1'],
    conversion: 'Webhook kruise-system/kruise-webhook-service/convert',
    convertedByOpenKruise: true,
    sameSchemas: false,
    servedByKruiseTs: true,
    ...shape,
  };
}

function findings(found: Partial<Findings>): Findings {
  return { namespace: 'kruise-system', configurations: [], manager: undefined, daemon: undefined, crds: [], ...found };
}

/** The plan in a few words per entry, for tables. */
function summary(plan: Plan): { changes: string[]; kept: string[]; refused: number } {
  return {
    changes: plan.changes.map((change) => {
      switch (change.type) {
        case 'delete-configuration':
          return `delete ${change.configuration.kind} ${change.configuration.name}`;
        case 'stop-manager':
          return `stop ${change.manager.name} from ${String(change.manager.replicas)}`;
        case 'conversion-none':
          return `None ${change.crd.name}`;
      }
    }),
    kept: plan.kept.map((entry) =>
      entry.type === 'daemon' ? `daemon ${entry.daemon.name}` : `replace ${entry.crd.name}`,
    ),
    refused: plan.refusals.length,
  };
}

describe('planMigration: what is found → what is done, in order', () => {
  it.each<[string, Partial<Findings>, ReturnType<typeof summary>]>([
    [
      'a whole OpenKruise 1.9: webhooks first, then the manager, then the CRDs',
      {
        // Listed validating first: the plan still deletes the mutating one (which blocks pods) first.
        configurations: [VALIDATING, MUTATING],
        manager: MANAGER,
        daemon: { name: 'kruise-daemon', pods: 3 },
        crds: [
          crd('broadcastjobs', { sameSchemas: true }),
          crd('sidecarsets', {}),
          crd('statefulsets', {}),
          crd('clonesets', { convertedByOpenKruise: false, conversion: 'None' }),
        ],
      },
      {
        changes: [
          'delete mutating kruise-mutating-webhook-configuration',
          'delete validating kruise-validating-webhook-configuration',
          'stop kruise-controller-manager from 2',
          'None broadcastjobs.apps.kruise.io',
        ],
        kept: ['daemon kruise-daemon', 'replace sidecarsets.apps.kruise.io', 'replace statefulsets.apps.kruise.io'],
        refused: 0,
      },
    ],
    [
      'the manager already scaled to 0 but a pod still terminating: wait for it',
      { manager: { ...MANAGER, replicas: 0, pods: 1 } },
      { changes: ['stop kruise-controller-manager from 0'], kept: [], refused: 0 },
    ],
    [
      'after a complete run: nothing to change',
      { manager: { ...MANAGER, replicas: 0, pods: 0 }, crds: [crd('statefulsets', {})] },
      { changes: [], kept: ['replace statefulsets.apps.kruise.io'], refused: 0 },
    ],
    [
      'only a leftover webhook configuration (the manager deleted by hand)',
      { configurations: [MUTATING] },
      { changes: ['delete mutating kruise-mutating-webhook-configuration'], kept: [], refused: 0 },
    ],
    [
      "an empty configuration with OpenKruise's name",
      { configurations: [{ ...VALIDATING, webhooks: 0, openKruiseWebhooks: 0 }] },
      { changes: ['delete validating kruise-validating-webhook-configuration'], kept: [], refused: 0 },
    ],
    [
      'a kind kruise-ts does not serve, schemas differing: reported, not touched',
      { crds: [crd('daemonsets', { servedByKruiseTs: false })] },
      { changes: [], kept: ['replace daemonsets.apps.kruise.io'], refused: 0 },
    ],
    ['nothing of OpenKruise', {}, { changes: [], kept: [], refused: 0 }],
    [
      "OpenKruise's name on a configuration calling elsewhere: refused, whatever else is found",
      {
        configurations: [MUTATING, { ...VALIDATING, openKruiseWebhooks: 0, elsewhere: ['other/hooks/validate'] }],
        manager: MANAGER,
      },
      {
        changes: ['delete mutating kruise-mutating-webhook-configuration', 'stop kruise-controller-manager from 2'],
        kept: [],
        refused: 1,
      },
    ],
    [
      "a configuration mixing OpenKruise's webhooks with others: refused",
      {
        configurations: [
          { ...MUTATING, name: 'shared', namedAsOpenKruise: false, elsewhere: ['https://hooks.example.com/x'] },
        ],
      },
      { changes: [], kept: [], refused: 1 },
    ],
  ])('%s', (_title, found, expected) => {
    expect(summary(planMigration(findings(found)))).toEqual(expected);
  });

  it('says why it refuses and what to do', () => {
    const plan = planMigration(
      findings({
        configurations: [
          { ...VALIDATING, openKruiseWebhooks: 0, elsewhere: ['other/hooks/validate'] },
          { ...MUTATING, name: 'shared', elsewhere: ['https://x'] },
        ],
      }),
    );
    expect(plan.refusals).toEqual([
      "validatingwebhookconfigurations.admissionregistration.k8s.io \"kruise-validating-webhook-configuration\" has OpenKruise's name but its webhooks call other/hooks/validate, not OpenKruise's Service: if OpenKruise runs in another namespace, pass --openkruise-namespace; if it is not OpenKruise's, this command will not touch it, so stop OpenKruise by hand (docs/migrating-from-openkruise.md)",
      'mutatingwebhookconfigurations.admissionregistration.k8s.io "shared" has OpenKruise\'s webhooks and others (calling https://x): remove OpenKruise\'s webhooks from it yourself, then run this again',
    ]);
  });
});
