/**
 * Test helpers for sharded managers. Import only from test files.
 *
 * STOP: this file is the public API of `@kruise-ts/sharding/testing`.
 */
export { startShardedTestManagers } from './sharded-test-managers.ts';
