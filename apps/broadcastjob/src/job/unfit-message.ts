/**
 * Why no node fits a job's pods, in the scheduler's words ("0/4 nodes are available: 2 node(s) had
 * untolerated taint {dedicated: gpu}, 2 node(s) were unschedulable."), for the Warning Event and the
 * NoEligibleNode condition.
 */

/** The message, reasons sorted by how many nodes gave them (then by text). */
export function noEligibleNodeMessage(reasons: ReadonlyMap<string, number>, nodeCount: number): string {
  const parts = [...reasons.entries()]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([reason, count]) => `${String(count)} ${reason}`);
  const why = parts.length === 0 ? '' : `: ${parts.join(', ')}`;
  return `0/${String(nodeCount)} nodes are available to the pod template${why}.`;
}
