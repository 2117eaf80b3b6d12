/** The strategic-merge patch that moves a pod to a lifecycle state. */
import { LIFECYCLE_STATE_LABEL, LIFECYCLE_TIMESTAMP_ANNOTATION } from '@kruise-ts/api';
import type { LifecycleState } from '@kruise-ts/api';

import type { Hook } from './hooks.ts';

/** Options of {@link lifecycleStatePatch}. */
export interface LifecycleStatePatchOptions {
  readonly state: LifecycleState;
  /** Current time in ms since the epoch. */
  readonly now: number;
  /**
   * A hook whose labels and finalizers are put back in the same patch (OpenKruise's
   * `UpdatePodLifecycleWithHandler`, used for Updated → PreparingUpdate).
   */
  readonly reapplyHook?: Hook | undefined;
}

/** Body of {@link lifecycleStatePatch}. */
export interface LifecycleStatePatchBody {
  readonly metadata: {
    readonly labels: Readonly<Record<string, string>>;
    readonly annotations: Readonly<Record<string, string>>;
    readonly finalizers?: readonly string[];
  };
}

/**
 * The lifecycle timestamp: RFC 3339 in UTC with second precision (`2026-01-02T07:04:05Z`).
 * OpenKruise writes the controller's local time with its offset (`2026-01-02T15:04:05+08:00`); both
 * denote the same instant, and UTC keeps our output independent of the host's time zone.
 */
export function lifecycleTimestamp(now: number): string {
  return new Date(now).toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * The strategic-merge patch body setting the state label and the timestamp annotation (plus, with
 * `reapplyHook`, the hook's labels and finalizers; finalizers merge into the existing list).
 */
export function lifecycleStatePatch(options: LifecycleStatePatchOptions): LifecycleStatePatchBody {
  const finalizers = options.reapplyHook?.finalizersHandler ?? [];
  return {
    metadata: {
      labels: { [LIFECYCLE_STATE_LABEL]: options.state, ...options.reapplyHook?.labelsHandler },
      annotations: { [LIFECYCLE_TIMESTAMP_ANNOTATION]: lifecycleTimestamp(options.now) },
      ...(finalizers.length === 0 ? {} : { finalizers: [...finalizers] }),
    },
  };
}
