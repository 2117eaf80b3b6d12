/**
 * `helm template` with `networkPolicy` (issue 38): off by default; on, one NetworkPolicy per enabled
 * app admitting the webhook port from the API server's addresses only and /metrics from the selected
 * namespaces; refused with a message naming the field when enabled without the API server's addresses.
 */
import type { V1NetworkPolicy } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { ofKind, renderChart, renderChartFailure } from '../support/helm.ts';

const ALL_APPS = 'SidecarSet=true,BroadcastJob=true';
const MONITORING = { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } };

describe('chart: networkPolicy', () => {
  it('renders no NetworkPolicy by default', async () => {
    const { manifests } = await renderChart({ featureGates: ALL_APPS });
    expect(ofKind<V1NetworkPolicy>(manifests, 'NetworkPolicy')).toEqual([]);
  });

  it("admits the webhook port only from the API server's addresses and /metrics only from the selected namespaces, for every enabled app", async () => {
    const { manifests } = await renderChart({
      featureGates: ALL_APPS,
      networkPolicy: {
        enabled: true,
        apiServerCIDRs: ['10.0.0.10/32', '10.0.0.11/32'],
        metricsNamespaceSelector: MONITORING,
      },
    });
    const policies = ofKind<V1NetworkPolicy>(manifests, 'NetworkPolicy');
    expect(policies.map((policy) => policy.metadata?.name).sort()).toEqual([
      'kruise-ts-advanced-statefulset',
      'kruise-ts-broadcastjob',
      'kruise-ts-cloneset',
      'kruise-ts-sidecarset',
    ]);
    for (const policy of policies) {
      expect(policy.spec?.policyTypes).toEqual(['Ingress']);
      expect(policy.spec?.podSelector?.matchLabels?.['app.kubernetes.io/component']).toBe(
        policy.metadata?.name?.replace('kruise-ts-', ''),
      );
      expect(policy.spec?.ingress).toEqual([
        {
          from: [{ ipBlock: { cidr: '10.0.0.10/32' } }, { ipBlock: { cidr: '10.0.0.11/32' } }],
          ports: [{ protocol: 'TCP', port: 'webhook' }],
        },
        { from: [{ namespaceSelector: MONITORING }], ports: [{ protocol: 'TCP', port: 'metrics' }] },
      ]);
    }
  });

  it('leaves out the webhook rule of an app without a webhook port', async () => {
    const { manifests } = await renderChart({
      webhook: { validation: { enabled: false } },
      networkPolicy: { enabled: true, apiServerCIDRs: ['10.0.0.10/32'] },
    });
    const cloneSet = ofKind<V1NetworkPolicy>(manifests, 'NetworkPolicy').find(
      (policy) => policy.metadata?.name === 'kruise-ts-cloneset',
    );
    expect(cloneSet?.spec?.ingress?.map((rule) => rule.ports?.[0]?.port)).toEqual(['metrics']);
  });

  it("refuses networkPolicy.enabled without the API server's addresses, naming the field, and an address that is not a CIDR", async () => {
    expect(await renderChartFailure({ networkPolicy: { enabled: true } })).toContain('networkPolicy.apiServerCIDRs');
    expect(await renderChartFailure({ networkPolicy: { enabled: true, apiServerCIDRs: ['apiserver'] } })).toContain(
      '/networkPolicy/apiServerCIDRs/0',
    );
  });
});
