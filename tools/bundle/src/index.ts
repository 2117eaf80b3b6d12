export {
  bundleApps,
  PROCESS_ENTRIES,
  REPOSITORY_ROOT,
  temporaryBundles,
  THREAD_ENTRIES,
  TOOL_ENTRIES,
  TOOL_LAUNCHERS,
} from './bundle-apps.ts';
export type { BundleOptions } from './bundle-apps.ts';
