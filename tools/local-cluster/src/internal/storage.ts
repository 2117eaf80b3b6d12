import { KubeConfig, StorageV1Api } from '@kubernetes/client-node';

/** The default StorageClass of a local cluster; PVCs without a class get it (DefaultStorageClass admission). */
export const FAKE_STORAGE_CLASS = 'standard';
/** The provisioner name our kwok stage acts for, like an external CSI provisioner would. */
export const FAKE_PROVISIONER = 'kruise-ts.io/fake-provisioner';

/**
 * Creates the default StorageClass. Binding is done by the real kube-controller-manager binder; the
 * provisioning of a PersistentVolume for each claim (and its deletion once released) by our kwok stages.
 */
export async function createDefaultStorageClass(kubeconfigPath: string): Promise<void> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  await kubeConfig.makeApiClient(StorageV1Api).createStorageClass({
    body: {
      metadata: { name: FAKE_STORAGE_CLASS, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: FAKE_PROVISIONER,
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'Immediate',
      allowVolumeExpansion: true,
    },
  });
}
