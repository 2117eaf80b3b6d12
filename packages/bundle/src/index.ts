export { bundleApps, PROCESS_ENTRIES, REPOSITORY_ROOT, temporaryBundles } from './bundle-apps.ts';
export type { BundleOptions } from './bundle-apps.ts';
