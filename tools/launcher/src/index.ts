/**
 * @kruise-ts/launcher: every enabled app in one process, and the demo.
 *
 * STOP: this file is the public API of @kruise-ts/launcher.
 */
export { APPS, enabledApps, launcherFlagsSchema } from './apps.ts';
export type { AppEntry, LauncherFlags } from './apps.ts';
export { ALL_IN_ONE_LEASE, startControllers } from './controllers.ts';
export type { RunningControllers, StartControllersOptions } from './controllers.ts';
