export { bundleApps, PROCESS_ENTRIES, REPOSITORY_ROOT } from './bundle-apps.ts';
export type { BundleOptions } from './bundle-apps.ts';
