/**
 * Where each kind keeps its "paused" switch: `spec.updateStrategy.paused` on a CloneSet,
 * `spec.updateStrategy.rollingUpdate.paused` on an Advanced StatefulSet.
 */
import { PreconditionError } from '../cli/cli-errors.ts';
import { objectErrorName } from '../resources/kinds.ts';
import type { Kind } from '../resources/kinds.ts';
import type { WorkloadObject } from '../resources/workload-object.ts';

export function isPaused(kind: Kind, object: WorkloadObject): boolean {
  const strategy = object.spec.updateStrategy;
  return (kind.id === 'advanced-statefulset' ? strategy?.rollingUpdate?.paused : strategy?.paused) === true;
}

/**
 * The merge patch that sets the switch. An Advanced StatefulSet with the OnDelete strategy has no
 * rolling update to pause (and the API refuses a rollingUpdate block with it).
 */
export function pausePatch(kind: Kind, object: WorkloadObject, paused: boolean): object {
  if (kind.id !== 'advanced-statefulset') {
    return { spec: { updateStrategy: { paused } } };
  }
  if (object.spec.updateStrategy?.type === 'OnDelete') {
    throw new PreconditionError(
      `${objectErrorName(kind, object.metadata.name)} updates OnDelete: it has no rolling update to pause or resume`,
    );
  }
  return { spec: { updateStrategy: { rollingUpdate: { paused } } } };
}
