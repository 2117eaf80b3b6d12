/**
 * `helm template` with `apps.<app>.shards` (docs/sharding.md): the sharded app's Deployment runs that
 * many replicas with `--sharding`, gets a PodDisruptionBudget and may work with the release
 * namespace's Leases; the other apps are unchanged; the SidecarSet app and negative counts are refused.
 */
import type { V1ClusterRole, V1Deployment, V1PodDisruptionBudget, V1Role } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { ofKind, renderChart, renderChartFailure } from '../support/helm.ts';

const ALL_APPS = 'SidecarSet=true,BroadcastJob=true';
/** What a sharded replica does with Leases beyond its leader Lease: read the ring, renew, take and release, collect the expired. */
const RING_RULE = {
  apiGroups: ['coordination.k8s.io'],
  resources: ['leases'],
  verbs: ['get', 'list', 'watch', 'update', 'delete'],
};

function deployment(manifests: Parameters<typeof ofKind>[0], name: string): V1Deployment | undefined {
  return ofKind<V1Deployment>(manifests, 'Deployment').find((d) => d.metadata?.name === name);
}

function argsOf(d: V1Deployment | undefined): string[] {
  return d?.spec?.template.spec?.containers[0]?.args ?? [];
}

function leaderRole(manifests: Parameters<typeof ofKind>[0], app: string): V1Role | undefined {
  return ofKind<V1Role>(manifests, 'Role').find((role) => role.metadata?.name === `kruise-ts-${app}-leader-election`);
}

describe('chart: sharded apps', () => {
  it.each(['cloneset', 'advanced-statefulset', 'broadcastjob'])(
    "runs apps.%s.shards replicas with --sharding, a PodDisruptionBudget and the ring's Lease rule",
    async (app) => {
      const { manifests } = await renderChart({ featureGates: ALL_APPS, apps: { [app]: { shards: 3 } } });
      const sharded = deployment(manifests, `kruise-ts-${app}`);
      expect(sharded?.spec?.replicas).toBe(3);
      expect(argsOf(sharded)).toContain('--sharding');
      expect(argsOf(sharded)).toContain(`--leader-election-id=kruise-ts-${app}`);
      expect(leaderRole(manifests, app)?.rules).toContainEqual(RING_RULE);
      expect(
        ofKind<V1PodDisruptionBudget>(manifests, 'PodDisruptionBudget').map((pdb) => pdb.metadata?.name),
      ).toContain(`kruise-ts-${app}`);
      // The other workload apps keep one leader, and no Lease rule beyond their own.
      for (const other of ['cloneset', 'advanced-statefulset', 'broadcastjob'].filter((name) => name !== app)) {
        expect(deployment(manifests, `kruise-ts-${other}`)?.spec?.replicas).toBe(1);
        expect(argsOf(deployment(manifests, `kruise-ts-${other}`))).not.toContain('--sharding');
        expect(leaderRole(manifests, other)?.rules).not.toContainEqual(RING_RULE);
      }
    },
  );

  it('lets every sharded app patch pods, by which its bucket labeller labels pods made before sharding (BroadcastJob only when sharded)', async () => {
    const podVerbs = (manifests: Parameters<typeof ofKind>[0], app: string): string[] =>
      ofKind<V1ClusterRole>(manifests, 'ClusterRole')
        .find((role) => role.metadata?.name === `kruise-ts-${app}`)
        ?.rules?.find((rule) => rule.resources?.includes('pods') === true && rule.apiGroups?.includes('') === true)
        ?.verbs ?? [];
    for (const app of ['cloneset', 'advanced-statefulset', 'broadcastjob']) {
      const { manifests } = await renderChart({ featureGates: ALL_APPS, apps: { [app]: { shards: 3 } } });
      expect(podVerbs(manifests, app), app).toContain('patch');
    }
    const { manifests } = await renderChart({ featureGates: ALL_APPS });
    expect(podVerbs(manifests, 'broadcastjob')).not.toContain('patch');
  });

  it('keeps one leader and no ring rule by default', async () => {
    const { manifests } = await renderChart({ featureGates: ALL_APPS });
    for (const d of ofKind<V1Deployment>(manifests, 'Deployment')) {
      expect(argsOf(d)).not.toContain('--sharding');
    }
    for (const role of ofKind<V1Role>(manifests, 'Role')) {
      expect(role.rules ?? []).not.toContainEqual(RING_RULE);
    }
  });

  it('refuses shards for the SidecarSet app, naming the field, and negative shards', async () => {
    expect(await renderChartFailure({ featureGates: ALL_APPS, apps: { sidecarset: { shards: 2 } } })).toContain(
      "at '/apps/sidecarset': additional properties 'shards' not allowed",
    );
    expect(await renderChartFailure({ apps: { cloneset: { shards: -1 } } })).toContain(
      "at '/apps/cloneset/shards': minimum: got -1, want 0",
    );
  });
});
