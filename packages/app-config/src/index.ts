/**
 * @kruise-ts/app-config: what configures the kruise-ts apps rather than any controller runtime.
 *
 * STOP: this file is the public API of @kruise-ts/app-config. Add explicit named exports only (no `export *`).
 */

// An app's main.
export { loadKubeConfigOrExit, runAppMain } from './app-main.ts';
export type { AppMainOptions } from './app-main.ts';
