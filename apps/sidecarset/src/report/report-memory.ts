/**
 * What the controller has reported with Events, so that each pod created without its sidecars and
 * each new set of conflicts is reported once (a restart reports them again once; the conditions
 * always tell). Bounded by what is still true: a SidecarSet's memory is replaced on every reconcile
 * by the pods it still misses (a deleted or recreated pod drops out), and forgotten when the
 * SidecarSet goes.
 */
export class ReportMemory {
  /** Missed pods already reported, by SidecarSet name, by pod uid. */
  readonly #missed = new Map<string, Set<string>>();
  /** The conflicts last reported per SidecarSet name (absent: none). */
  readonly #conflicts = new Map<string, string>();

  /**
   * Records the pods the SidecarSet misses now (`missed`, uids) and returns those of `reportable`
   * not reported before; the others are forgotten.
   */
  newlyMissed(
    set: string,
    input: { readonly missed: readonly string[]; readonly reportable: readonly string[] },
  ): string[] {
    const before = this.#missed.get(set) ?? new Set<string>();
    const fresh = input.reportable.filter((uid) => !before.has(uid));
    const reportable = new Set(input.reportable);
    const kept = new Set(input.missed.filter((uid) => before.has(uid) || reportable.has(uid)));
    if (kept.size === 0) {
      this.#missed.delete(set);
    } else {
      this.#missed.set(set, kept);
    }
    return fresh;
  }

  /** Whether `message` (the SidecarSet's conflicts, '' for none) differs from the last one reported; records it. */
  conflictsChanged(set: string, message: string): boolean {
    if ((this.#conflicts.get(set) ?? '') === message) {
      return false;
    }
    if (message === '') {
      this.#conflicts.delete(set);
    } else {
      this.#conflicts.set(set, message);
    }
    return true;
  }

  /** The SidecarSet is gone (or out of this manager's scope). */
  forget(set: string): void {
    this.#missed.delete(set);
    this.#conflicts.delete(set);
  }

  /** Entries held: SidecarSets with missed pods, the pods, SidecarSets with conflicts. */
  size(): { readonly sets: number; readonly pods: number; readonly conflicts: number } {
    const pods = [...this.#missed.values()].reduce((sum, uids) => sum + uids.size, 0);
    return { sets: this.#missed.size, pods, conflicts: this.#conflicts.size };
  }
}
