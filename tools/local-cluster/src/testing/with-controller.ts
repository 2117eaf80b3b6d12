/**
 * The frame of an app's integration test: its CRDs installed, a fresh namespace, something started in
 * it (the app's controller, scoped to that namespace), and everything stopped and deleted afterwards.
 */
import { applyCrdFiles } from '../internal/crds.ts';
import { createTestNamespace, testKubeConfig } from './test-namespace.ts';

/** What the frame starts in the namespace and stops at the end. */
export interface Stoppable {
  stop(): Promise<void>;
}

/** Runs `run` in a fresh namespace with `crdFiles` applied and `start(namespace)` running. */
export async function withStartedInNamespace<T>(
  frame: {
    readonly prefix: string;
    readonly crdFiles: readonly string[];
    readonly start: (namespace: string) => Stoppable;
  },
  run: (namespace: string) => Promise<T>,
): Promise<T> {
  const kubeConfig = testKubeConfig();
  await applyCrdFiles(kubeConfig, frame.crdFiles);
  await using ns = await createTestNamespace(kubeConfig, frame.prefix);
  const started = frame.start(ns.name);
  try {
    return await run(ns.name);
  } finally {
    await started.stop();
  }
}
