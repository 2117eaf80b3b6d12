/** applyCrdFiles on the real API server: re-applying a CRD file keeps what others added to its metadata. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { ApiextensionsV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { applyCrdFiles } from '../../src/index.ts';
import { testKubeConfig } from '../../src/testing/index.ts';

const kubeConfig = testKubeConfig();
const api = kubeConfig.makeApiClient(ApiextensionsV1Api);
const NAME = 'gadgets.crd-apply.kruise-ts.test';

function crdYaml(label: string): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${NAME}
  labels:
    from-file: ${label}
spec:
  group: crd-apply.kruise-ts.test
  names: { kind: Gadget, listKind: GadgetList, plural: gadgets, singular: gadget }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true }
`;
}

describe('applyCrdFiles', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'crd-apply-'));
  });
  afterAll(async () => {
    await api.deleteCustomResourceDefinition({ name: NAME }).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it("creates the CRD, and a second apply updates it from the file while keeping labels and annotations others set (a Helm release's)", async () => {
    const file = path.join(dir, 'crd.yaml');
    await writeFile(file, crdYaml('one'));
    await applyCrdFiles(kubeConfig, [file]);
    await api.patchCustomResourceDefinition(
      {
        name: NAME,
        body: {
          metadata: {
            annotations: { 'helm.sh/resource-policy': 'keep' },
            labels: { 'app.kubernetes.io/managed-by': 'Helm' },
          },
        },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await writeFile(file, crdYaml('two'));
    await applyCrdFiles(kubeConfig, [file]);
    const crd = await api.readCustomResourceDefinition({ name: NAME });
    expect(crd.metadata?.labels).toMatchObject({ 'from-file': 'two', 'app.kubernetes.io/managed-by': 'Helm' });
    expect(crd.metadata?.annotations?.['helm.sh/resource-policy']).toBe('keep');
  });
});
