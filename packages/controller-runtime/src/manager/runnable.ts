/** Something the manager runs until shutdown: a controller, an informer factory, a server. */
export interface Runnable {
  /** Runs until the signal aborts; a rejection stops the whole manager. */
  start(signal: AbortSignal): Promise<void>;
  /** Only the elected leader runs it (controllers); caches and servers run on every replica. */
  readonly needLeaderElection?: boolean;
  /**
   * Serves requests that reach the process whatever its readiness and however it is shutting down (a
   * webhook server behind a Service that publishes not-ready addresses, where a terminating pod stays
   * an endpoint until it is gone): the manager stops it, with the caches, only after the other
   * runnables have finished, right before it closes the API client.
   */
  readonly servesUntilExit?: boolean;
}
