/**
 * `helm template`: the CRDs the chart installs (issue 29): both API versions of the kinds OpenKruise
 * 1.9 serves in two, the conversion webhook of Advanced StatefulSet and SidecarSet pointed at their
 * app's webhook Service in the release namespace (BroadcastJob's two versions are one schema: None),
 * cert-manager's CA-injection annotation with webhook.certManager.enabled, and none with
 * crds.install=false.
 */
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { ofKind, renderChart } from '../support/helm.ts';

const ALL_APPS = 'SidecarSet=true,BroadcastJob=true';

function crd(manifests: Parameters<typeof ofKind>[0], name: string): V1CustomResourceDefinition {
  const found = ofKind<V1CustomResourceDefinition>(manifests, 'CustomResourceDefinition').find(
    (candidate) => candidate.metadata?.name === name,
  );
  if (found === undefined) {
    throw new Error(`no CRD ${name}`);
  }
  return found;
}

describe('helm template: the CRDs', () => {
  it('serves v1alpha1 and v1beta1 of Advanced StatefulSet, SidecarSet and BroadcastJob, stores v1beta1, and converts through the app of each kind', async () => {
    const { manifests } = await renderChart({ featureGates: ALL_APPS }, { namespace: 'controllers', release: 'kts' });
    for (const [name, app] of [
      ['statefulsets.apps.kruise.io', 'advanced-statefulset'],
      ['sidecarsets.apps.kruise.io', 'sidecarset'],
    ] as const) {
      const definition = crd(manifests, name);
      expect(
        definition.spec.versions.map(({ name: version, served, storage }) => ({ version, served, storage })),
        name,
      ).toEqual([
        { version: 'v1alpha1', served: true, storage: false },
        { version: 'v1beta1', served: true, storage: true },
      ]);
      expect(definition.spec.conversion, name).toEqual({
        strategy: 'Webhook',
        webhook: {
          conversionReviewVersions: ['v1'],
          clientConfig: {
            service: { name: `kts-kruise-ts-${app}-webhook`, namespace: 'controllers', path: '/convert', port: 443 },
          },
        },
      });
      expect(definition.metadata?.annotations, name).toEqual({ 'helm.sh/resource-policy': 'keep' });
    }
    const jobs = crd(manifests, 'broadcastjobs.apps.kruise.io');
    expect(jobs.spec.versions.map((version) => [version.name, version.storage])).toEqual([
      ['v1alpha1', false],
      ['v1beta1', true],
    ]);
    expect(jobs.spec.conversion).toEqual({ strategy: 'None', webhook: null });
  });

  it("with cert-manager, asks its CA injector to fill the conversion caBundle from the app's Certificate", async () => {
    const { manifests } = await renderChart(
      { featureGates: ALL_APPS, webhook: { certManager: { enabled: true } } },
      { namespace: 'controllers', release: 'kts' },
    );
    expect(crd(manifests, 'sidecarsets.apps.kruise.io').metadata?.annotations).toEqual({
      'helm.sh/resource-policy': 'keep',
      'cert-manager.io/inject-ca-from': 'controllers/kts-kruise-ts-sidecarset-webhook',
    });
    expect(
      crd(manifests, 'statefulsets.apps.kruise.io').metadata?.annotations?.['cert-manager.io/inject-ca-from'],
    ).toBe('controllers/kts-kruise-ts-advanced-statefulset-webhook');
    expect(crd(manifests, 'broadcastjobs.apps.kruise.io').metadata?.annotations).toEqual({
      'helm.sh/resource-policy': 'keep',
    });
  });

  it('renders no CRD with crds.install=false', async () => {
    const { manifests } = await renderChart({ featureGates: ALL_APPS, crds: { install: false } });
    expect(ofKind(manifests, 'CustomResourceDefinition')).toEqual([]);
    expect(ofKind(manifests, 'Deployment')).toHaveLength(4);
  });
});
