/** Something the manager runs until shutdown: a controller, an informer factory, a server. */
export interface Runnable {
  /** Runs until the signal aborts; a rejection stops the whole manager. */
  start(signal: AbortSignal): Promise<void>;
  /** Only the elected leader runs it (controllers); caches and servers run on every replica. */
  readonly needLeaderElection?: boolean;
}
