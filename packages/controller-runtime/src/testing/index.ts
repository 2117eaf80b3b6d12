/**
 * Test helpers for code built on `@kruise-ts/controller-runtime`. Import only from test files.
 *
 * STOP: this file is the public API of `@kruise-ts/controller-runtime/testing`.
 */
export { FakeClock } from './fake-clock.ts';
