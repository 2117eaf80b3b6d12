/**
 * What a controller's workers ask before each reconcile when the process shares the work with other
 * replicas (docs/sharding.md). The controller knows only this question; who answers it (the bucket
 * gate of a sharded manager) is plugged in.
 */

/** What the queue does with a key: reconcile it now, drop it (another replica's), or try again later. */
export type Admission = 'run' | 'drop' | 'later';

/** Asked by a controller's worker before each reconcile, and told when it ends. */
export interface ReconcileGate {
  admit(key: string): Admission;
  /** Called once for every key admitted with 'run', when its reconcile ended. */
  finished(key: string): void;
}
